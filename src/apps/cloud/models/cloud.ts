import { defineModel, f } from '../../../core/registry/define-model.js';
import { parentHasNoParent } from '../rules.js';
import { ASSIGNMENT_FEATURES, assignmentDisplay, assignmentKeys } from '../../shared/assignment.js';
import type { Row } from '../../../core/registry/types.js';

/** A column value as display text; null and undefined become ''. */
const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const cidr = (row: Row | undefined): string => (row ? `${text(row.network)}/${text(row.prefix_length)}` : '');

const PRIMARY_FEATURES = ['graphql', 'dynamic_groups', 'contacts', 'metadata', 'export_templates', 'webhooks', 'custom_links'];

/** The cloud resource type and its configuration, shared by cloud networks and services (reference CloudResourceTypeMixin). */
const resourceTypeFields = () => ({
  extra_config: f.json({ nullable: true, options_type: 'field' }),
});

/** Cloud account: an account with a cloud provider (a manufacturer), under which networks and services live. */
export const cloudAccount = defineModel({
  app: 'cloud', model: 'cloudaccount', verbose_name: 'cloud account', verbose_name_plural: 'cloud accounts', path: 'cloud-accounts',
  base: 'primary',
  features: PRIMARY_FEATURES,
  fields: {
    name: f.string({ max_length: 255, required: true, unique: true, help_text: 'The name of this Cloud Account.' }),
    description: f.string({ max_length: 255, default: '' }),
    account_number: f.string({ max_length: 255, required: true, help_text: 'The account identifier of this Cloud Account.' }),
    provider: f.fk('dcim.manufacturer', { required: true, related_name: 'cloud_accounts', help_text: 'The Manufacturer instance which represents the Cloud Provider' }),
    secrets_group: f.fk('extras.secretsgroup', { nullable: true, on_delete: 'SET_NULL' }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: (row, ctx) => `${ctx.display('dcim.manufacturer', row.provider_id) ?? ''}: ${text(row.name)} - ${text(row.account_number)}`,
  display_needs: ['provider'],
  search: ['name', 'description', 'account_number', 'provider__name'],
});

/** Cloud resource type: a kind of cloud object of a provider (a VPC, a load balancer), with a schema for its configuration. */
export const cloudResourceType = defineModel({
  app: 'cloud', model: 'cloudresourcetype', verbose_name: 'cloud resource type', verbose_name_plural: 'cloud resource types', path: 'cloud-resource-types',
  base: 'primary',
  features: PRIMARY_FEATURES,
  fields: {
    name: f.string({ max_length: 255, required: true, unique: true, help_text: 'Type of cloud objects' }),
    description: f.string({ max_length: 255, default: '' }),
    config_schema: f.json({ nullable: true, options_type: 'field' }),
    provider: f.fk('dcim.manufacturer', { required: true, related_name: 'cloud_resource_types', help_text: 'The Manufacturer instance which represents the Cloud Provider' }),
    content_types: f.contentTypes({ required: true, content_type_feature: 'cloud_resource_types', help_text: 'The content type(s) to which this model applies.' }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: (row, ctx) => `${ctx.display('dcim.manufacturer', row.provider_id) ?? ''}: ${text(row.name)}`,
  display_needs: ['provider'],
  search: ['name', 'description', 'provider__name'],
});

/** Cloud network: a network in a cloud account (a VPC, a subnet of one), holding prefixes. */
export const cloudNetwork = defineModel({
  app: 'cloud', model: 'cloudnetwork', verbose_name: 'cloud network', verbose_name_plural: 'cloud networks', path: 'cloud-networks',
  base: 'primary',
  features: [...PRIMARY_FEATURES, 'cloud_resource_types'],
  fields: {
    ...resourceTypeFields(),
    name: f.string({ max_length: 255, required: true, unique: true }),
    description: f.string({ max_length: 255, default: '' }),
    cloud_resource_type: f.fk('cloud.cloudresourcetype', { required: true, limit_to_content_type: true, related_name: 'cloud_networks' }),
    cloud_account: f.fk('cloud.cloudaccount', { required: true, related_name: 'cloud_networks' }),
    parent: f.fk('cloud.cloudnetwork', { nullable: true, related_name: 'children' }),
    prefixes: f.m2m('ipam.prefix', { read_only: true }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: 'name',
  search: ['name', 'description', 'parent__name', 'parent__description', 'cloud_account__name', 'cloud_account__description', 'cloud_resource_type__name', 'cloud_resource_type__description'],
  rules: [parentHasNoParent],
});

/** Cloud network-prefix assignment: a prefix used in a cloud network. */
export const cloudNetworkPrefixAssignment = defineModel({
  app: 'cloud', model: 'cloudnetworkprefixassignment', verbose_name: 'cloud network prefix assignment', verbose_name_plural: 'cloud network prefix assignments', path: 'cloud-network-prefix-assignments',
  base: 'base',
  features: ASSIGNMENT_FEATURES,
  fields: {
    cloud_network: f.fk('cloud.cloudnetwork', { required: true, on_delete: 'CASCADE', related_name: 'prefix_assignments' }),
    prefix: f.fk('ipam.prefix', { required: true, on_delete: 'CASCADE', related_name: 'cloud_network_assignments' }),
  },
  ...assignmentKeys('cloud_network', 'prefix'),
  display: (row, ctx) => `${ctx.display('cloud.cloudnetwork', row.cloud_network_id) ?? ''}: ${cidr(ctx.related('ipam.prefix', row.prefix_id))}`,
  search: ['cloud_network__name', 'cloud_network__description'],
});

/** Cloud service: a service run in a cloud account (a managed database, a load balancer), on cloud networks. */
export const cloudService = defineModel({
  app: 'cloud', model: 'cloudservice', verbose_name: 'cloud service', verbose_name_plural: 'cloud services', path: 'cloud-services',
  base: 'primary',
  features: [...PRIMARY_FEATURES, 'cloud_resource_types'],
  fields: {
    ...resourceTypeFields(),
    name: f.string({ max_length: 255, required: true, unique: true }),
    description: f.string({ max_length: 255, default: '' }),
    cloud_resource_type: f.fk('cloud.cloudresourcetype', { required: true, limit_to_content_type: true, related_name: 'cloud_services' }),
    cloud_account: f.fk('cloud.cloudaccount', { nullable: true, on_delete: 'SET_NULL', related_name: 'cloud_services' }),
    cloud_networks: f.m2m('cloud.cloudnetwork', { read_only: true }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: 'name',
  search: ['name', 'description', 'cloud_account__name', 'cloud_account__description', 'cloud_networks__name', 'cloud_networks__description', 'cloud_resource_type__name', 'cloud_resource_type__description'],
});

/** Cloud service-network assignment: a cloud network a cloud service uses. */
export const cloudServiceNetworkAssignment = defineModel({
  app: 'cloud', model: 'cloudservicenetworkassignment', verbose_name: 'cloud service network assignment', verbose_name_plural: 'cloud service network assignments', path: 'cloud-service-network-assignments',
  base: 'base',
  features: ASSIGNMENT_FEATURES,
  fields: {
    cloud_network: f.fk('cloud.cloudnetwork', { required: true, on_delete: 'CASCADE', related_name: 'cloud_service_assignments' }),
    cloud_service: f.fk('cloud.cloudservice', { required: true, on_delete: 'CASCADE', related_name: 'cloud_network_assignments' }),
  },
  ...assignmentKeys('cloud_network', 'cloud_service'),
  display: assignmentDisplay(['cloud_network', 'cloud.cloudnetwork'], ['cloud_service', 'cloud.cloudservice']),
  search: [
    'cloud_network__name', 'cloud_network__description', 'cloud_network__cloud_account__name', 'cloud_network__cloud_account__description',
    'cloud_network__cloud_resource_type__name', 'cloud_network__cloud_resource_type__description', 'cloud_service__name', 'cloud_service__description',
    'cloud_service__cloud_account__name', 'cloud_service__cloud_account__description', 'cloud_service__cloud_resource_type__name', 'cloud_service__cloud_resource_type__description',
  ],
});
