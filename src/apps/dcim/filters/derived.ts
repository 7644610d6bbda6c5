import { derivedFilters } from '../../shared/derived-filters.js';
import { mergeExtensions } from '../extensions/merge.js';
import { DCIM_SPECIAL_FILTERS } from './special.js';

/** Every tenant-owned model: `tenant_id` and `tenant_group` (the tenant's group and its subgroups). */
const TENANCY = ['tenant_id', 'tenant_group=tenant__tenant_group'];

/** A device component: its location is its device's. */
const COMPONENT = ['location=device__location'];

const PORT_OWNERS = ['console_ports', 'has_console_ports', 'console_server_ports', 'has_console_server_ports', 'power_ports', 'has_power_ports',
  'power_outlets', 'has_power_outlets', 'interfaces', 'has_interfaces', 'front_ports', 'has_front_ports', 'rear_ports', 'has_rear_ports', 'module_bays', 'has_module_bays'];

const TEMPLATE_OWNERS = ['console_port_templates', 'has_console_port_templates', 'console_server_port_templates', 'has_console_server_port_templates',
  'power_port_templates', 'has_power_port_templates', 'power_outlet_templates', 'has_power_outlet_templates', 'interface_templates', 'has_interface_templates',
  'front_port_templates', 'has_front_port_templates', 'rear_port_templates', 'has_rear_port_templates', 'module_bay_templates', 'has_module_bay_templates'];

const TEMPLATE = ['has_device_type', 'has_module_type'];

/** Filters of the dcim models beyond their fields (catalogue `filters`), derived from the registry (apps/shared/derived-filters.ts). */
export const DCIM_DERIVED_FILTERS: Record<string, string[]> = {
  'dcim.location': ['content_type=location_type__content_types', 'circuit_terminations=pk:circuit_terminations', 'has_circuit_terminations', 'devices', 'has_devices', 'power_panels', 'has_power_panels', 'rack_groups', 'has_rack_groups',
    'racks', 'has_racks', 'prefixes', 'has_prefixes', 'vlan_groups', 'has_vlan_groups', 'vlans', 'has_vlans', 'clusters', 'has_clusters', 'subtree', ...TENANCY],
  'dcim.manufacturer': ['inventory_items', 'has_inventory_items', 'device_types', 'has_device_types', 'platforms', 'has_platforms'],
  'dcim.devicefamily': ['device_types', 'has_device_types'],
  'dcim.modulefamily': ['module_types'],
  'dcim.platform': ['devices', 'has_devices', 'virtual_machines', 'has_virtual_machines'],
  'dcim.virtualchassis': ['location=master__location', 'tenant=master__tenant', 'tenant_group=master__tenant__tenant_group', 'members', 'has_members'],
  'dcim.rackgroup': ['ancestors=^location', 'children', 'has_children', 'power_panels', 'has_power_panels', 'racks', 'has_racks'],
  'dcim.rack': ['devices', 'has_devices', 'power_feeds', 'has_power_feeds', 'rack_reservations', 'has_rack_reservations', ...TENANCY],
  'dcim.rackreservation': ['rack_group=rack__rack_group', 'location=rack__location', ...TENANCY],
  'dcim.devicetype': ['devices', 'has_devices', 'device_bay_templates', 'has_device_bay_templates', ...TEMPLATE_OWNERS,
    'console_ports=@has_console_port_templates', 'console_server_ports=@has_console_server_port_templates', 'power_ports=@has_power_port_templates',
    'power_outlets=@has_power_outlet_templates', 'interfaces=@has_interface_templates', 'device_bays=@has_device_bay_templates', 'pass_through_ports=@has_front_port_templates', 'has_software_image_files=@has_device_type_to_software_image_file_mappings'],
  'dcim.moduletype': ['has_modules', ...TEMPLATE_OWNERS],
  'dcim.device': ['manufacturer=device_type__manufacturer', 'device_family=device_type__device_family', 'rack_group=rack__rack_group', 'is_full_depth=device_type__is_full_depth',
    'has_primary_ip', 'mac_address=interfaces.mac_address', 'is_virtual_chassis_member', 'virtual_chassis_member', 'device_bays', 'has_device_bays', 'has_software_version', 'has_software_image_files', 'has_modules=module_bays.has_installed_module', 'has_empty_module_bays=module_bays.has_installed_module:false', 'controller=controller_managed_device_group__controller', 'local_config_context_schema_id', ...PORT_OWNERS, ...TENANCY],
  'dcim.module': ['is_installed', 'has_modules=module_bays.has_installed_module', 'has_empty_module_bays=module_bays.has_installed_module:false', 'mac_address=interfaces.mac_address', 'manufacturer=module_type__manufacturer', 'module_family=module_type__module_family', ...PORT_OWNERS, ...TENANCY],
  'dcim.consoleport': COMPONENT,
  'dcim.consoleserverport': COMPONENT,
  'dcim.powerport': [...COMPONENT, 'power_outlets', 'has_power_outlets'],
  'dcim.poweroutlet': COMPONENT,
  'dcim.interface': [...COMPONENT, 'child_interfaces', 'has_child_interfaces', 'bridged_interfaces', 'has_bridged_interfaces', 'member_interfaces', 'has_member_interfaces',
    'virtual_device_contexts=interface_vdc_assignments.virtual_device_context', 'has_virtual_device_contexts=@has_interface_vdc_assignments',
    'interface_redundancy_groups=interface_redundancy_group_associations.interface_redundancy_group'],
  'dcim.frontport': COMPONENT,
  'dcim.rearport': [...COMPONENT, 'front_ports', 'has_front_ports'],
  'dcim.devicebay': COMPONENT,
  'dcim.inventoryitem': [...COMPONENT, 'children', 'has_children', 'has_software_version', 'has_software_image_files'],
  'dcim.modulebay': ['has_parent_device', 'has_parent_module', 'installed_module', 'has_installed_module'],
  'dcim.virtualdevicecontext': ['has_primary_ip', 'has_tenant', 'has_interfaces=@has_interface_vdc_assignments', ...TENANCY],
  'dcim.consoleporttemplate': TEMPLATE,
  'dcim.consoleserverporttemplate': TEMPLATE,
  'dcim.powerporttemplate': [...TEMPLATE, 'power_outlet_templates', 'has_power_outlet_templates'],
  'dcim.poweroutlettemplate': TEMPLATE,
  'dcim.interfacetemplate': TEMPLATE,
  'dcim.frontporttemplate': TEMPLATE,
  'dcim.rearporttemplate': [...TEMPLATE, 'front_port_templates', 'has_front_port_templates'],
  'dcim.modulebaytemplate': TEMPLATE,
  'dcim.powerpanel': ['power_feeds', 'has_power_feeds', 'has_feeders'],
  'dcim.powerfeed': ['location=power_panel__location'],
  'dcim.controller': TENANCY,
  'dcim.controllermanageddevicegroup': ['subtree', ...TENANCY],
  'dcim.softwareversion': ['devices', 'has_devices', 'inventory_items', 'has_inventory_items', 'virtual_machines', 'has_virtual_machines', 'software_image_files', 'has_software_image_files',
    'device_types=software_image_files.device_type_to_software_image_file_mappings.device_type'],
  'dcim.softwareimagefile': ['devices', 'has_devices', 'device_types=device_type_to_software_image_file_mappings.device_type', 'has_device_types=@has_device_type_to_software_image_file_mappings'],
  'dcim.interfacevdcassignment': ['device=virtual_device_context__device'],
};

/** The dcim filters beyond the model fields: the derived ones and those with their own semantics (special.ts). */
export const dcimDerivedFilters = mergeExtensions([derivedFilters(DCIM_DERIVED_FILTERS), DCIM_SPECIAL_FILTERS]);
