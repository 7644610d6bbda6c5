import { defineModel, f } from '../../../core/registry/define-model.js';
import { parentNotDescendant, treeDisplay } from '../../shared/tree.js';

/** Tenant group: a tree of groups that organise tenants. */
export const tenantGroup = defineModel({
  app: 'tenancy', model: 'tenantgroup', verbose_name: 'tenant group', verbose_name_plural: 'tenant groups', path: 'tenant-groups',
  base: 'organizational',
  features: ['dynamic_groups', 'graphql', 'contacts', 'metadata', 'custom_validators'],
  tree: true,
  fields: {
    tree_depth: f.treeDepth(),
    tenant_count: f.count('tenancy.tenant', 'tenant_group'),
    name: f.string({ max_length: 255, required: true, unique: true }),
    description: f.string({ max_length: 255, default: '' }),
    parent: f.fk('tenancy.tenantgroup', { nullable: true, on_delete: 'CASCADE', tree_filter: true }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: treeDisplay,
  str_field: 'name',
  rules: [parentNotDescendant],
});

/** Tenant: a customer or organisational unit that owns resources. */
export const tenant = defineModel({
  app: 'tenancy', model: 'tenant', verbose_name: 'tenant', verbose_name_plural: 'tenants', path: 'tenants',
  base: 'primary',
  features: ['dynamic_groups', 'export_templates', 'graphql', 'webhooks', 'contacts', 'metadata', 'custom_links', 'custom_validators'],
  fields: {
    circuit_count: f.count('circuits.circuit', 'tenant'),
    device_count: f.count('dcim.device', 'tenant'),
    ipaddress_count: f.count('ipam.ipaddress', 'tenant'),
    prefix_count: f.count('ipam.prefix', 'tenant'),
    rack_count: f.count('dcim.rack', 'tenant'),
    virtualmachine_count: f.count('virtualization.virtualmachine', 'tenant'),
    vlan_count: f.count('ipam.vlan', 'tenant'),
    vrf_count: f.count('ipam.vrf', 'tenant'),
    cluster_count: f.count('virtualization.cluster', 'tenant'),
    name: f.string({ max_length: 255, required: true, unique: true }),
    description: f.string({ max_length: 255, default: '' }),
    comments: f.text({ default: '' }),
    tenant_group: f.fk('tenancy.tenantgroup', { nullable: true, on_delete: 'SET_NULL', tree_filter: true }),
  },
  natural_key: ['name'],
  ordering: ['tenant_group', 'name'],
  display: 'name',
  search: ['name', 'description', 'comments'],
  tail_order: ['created', 'last_updated', 'tags', 'notes_url', 'custom_fields', 'computed_fields', 'relationships'],
});
