import { defineModel, f } from '../../../core/registry/define-model.js';
import { parentNotDescendant, treeDisplay } from '../../shared/tree.js';
import { locationParentMatchesType, locationTypeFixed, locationTypeNameNotReserved, locationTypeNestableInUse, locationTypeParentFixed } from '../rules.js';

/** Location type: a level of the location hierarchy (region, site, building, room, ...). */
export const locationType = defineModel({
  app: 'dcim', model: 'locationtype', verbose_name: 'location type', verbose_name_plural: 'location types', path: 'location-types',
  base: 'organizational',
  features: ['dynamic_groups', 'contacts', 'metadata', 'export_templates', 'graphql', 'webhooks', 'custom_links', 'custom_validators'],
  tree: true,
  fields: {
    tree_depth: f.treeDepth(),
    content_types: f.contentTypes({ content_type_feature: 'locations' }),
    name: f.string({ max_length: 255, required: true, unique: true }),
    description: f.string({ max_length: 255, default: '' }),
    nestable: f.boolean({ default: false }),
    parent: f.fk('dcim.locationtype', { nullable: true, on_delete: 'CASCADE', tree_filter: true }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: treeDisplay,
  str_field: 'name',
  rules: [parentNotDescendant, locationTypeNameNotReserved, locationTypeNestableInUse, locationTypeParentFixed],
});

/** Location: a place in the hierarchy (site, building, room, ...), typed by its location type. */
export const location = defineModel({
  app: 'dcim', model: 'location', verbose_name: 'location', verbose_name_plural: 'locations', path: 'locations',
  base: 'primary',
  features: ['statuses', 'locations', 'dynamic_groups', 'contacts', 'metadata', 'export_templates', 'graphql', 'webhooks', 'custom_links', 'custom_validators'],
  tree: true,
  fields: {
    tree_depth: f.treeDepth(),
    time_zone: f.timeZone({ default: '' }),
    circuit_count: f.count('circuits.circuittermination', 'location'),
    device_count: f.count('dcim.device', 'location'),
    prefix_count: f.count('ipam.prefixlocationassignment', 'location'),
    rack_count: f.count('dcim.rack', 'location'),
    virtual_machine_count: f.count('virtualization.cluster', 'location'),
    vlan_count: f.count('ipam.vlanlocationassignment', 'location'),
    name: f.string({ max_length: 255, required: true }),
    _name: f.naturalOrder('name'),
    description: f.string({ max_length: 255, default: '' }),
    facility: f.string({ max_length: 255, default: '' }),
    asn: f.bigInteger({ nullable: true, label: 'ASN', min_value: 1, max_value: 4294967295, options_type: 'integer' }),
    physical_address: f.text({ default: '' }),
    shipping_address: f.text({ default: '' }),
    latitude: f.decimal({ nullable: true, max_digits: 8, decimal_places: 6 }),
    longitude: f.decimal({ nullable: true, max_digits: 9, decimal_places: 6 }),
    contact_name: f.string({ max_length: 255, default: '' }),
    contact_phone: f.string({ max_length: 255, default: '' }),
    contact_email: f.email({ max_length: 254, default: '', label: 'Contact E-mail' }),
    comments: f.text({ default: '' }),
    parent: f.fk('dcim.location', { nullable: true, on_delete: 'CASCADE', tree_filter: true }),
    location_type: f.fk('dcim.locationtype', { required: true, on_delete: 'PROTECT' }),
    status: f.status({ required: true }),
    tenant: f.fk('tenancy.tenant', { nullable: true, on_delete: 'PROTECT' }),
  },
  natural_key: ['name', 'parent'],
  unique_together: [['parent', 'name']],
  unique_messages: {
    'parent,name': {
      field: 'name',
      nulls_equal: true,
      message: (row) => (row.parent_id ? 'A location with this name already exists within the parent location.' : 'A root-level location with this name already exists.'),
    },
  },
  ordering: ['_name'],
  display: treeDisplay,
  str_field: 'name',
  search: [
    'name',
    'facility',
    'description',
    'physical_address',
    'shipping_address',
    'contact_name',
    'contact_phone',
    'contact_email',
    'comments',
    { path: 'asn', lookup: 'exact', term: 'int' },
  ],
  rules: [parentNotDescendant, locationTypeFixed, locationParentMatchesType],
});
