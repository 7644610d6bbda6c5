import { randomUUID } from 'node:crypto';
import { create } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/** One object of every served model, by model id (plus a few helpers by name), for the `q` suite. */
export type World = Record<string, any>;

/**
 * Writes a row of a model the API cannot create (jobs, job results, ...) straight to its table:
 * the given columns, every other one its default or null. Returns its id.
 */
async function insert(t: TestApp, modelId: string, values: Record<string, unknown>): Promise<string> {
  const { services } = t.app;
  const model = services.registry.get(modelId);
  const id = randomUUID();
  const now = new Date().toISOString();
  const row: Record<string, unknown> = { id };
  for (const field of model.columns) {
    if (field.name === 'id') continue;
    const column = field.column as string;
    const fallback = typeof field.default === 'function' ? field.default() : field.default;
    row[column] = column in values ? values[column] : column === 'created' || column === 'last_updated' ? now : column === '_custom_field_data' ? {} : fallback ?? null;
  }
  await services.store.insert(services.dialect.db, model, [row as never]);
  return id;
}

/** Locations, tenancy, device types, a device with its components, modules and virtual chassis. */
async function dcim(t: TestApp, w: World): Promise<void> {
  const located = ['dcim.device', 'dcim.rack', 'dcim.rackgroup', 'dcim.powerpanel', 'dcim.module', 'dcim.controller', 'virtualization.cluster', 'circuits.circuittermination', 'ipam.prefix', 'ipam.vlan'];
  w['dcim.locationtype'] = await create(t, '/api/dcim/location-types/', { name: 'LType-Campus', description: 'LType-desc', content_types: located });
  w['tenancy.tenantgroup'] = await create(t, '/api/tenancy/tenant-groups/', { name: 'TGroup-One', description: 'TGroup-desc' });
  w['tenancy.tenant'] = await create(t, '/api/tenancy/tenants/', { name: 'Tenant-Corp', tenant_group: w['tenancy.tenantgroup'].id, description: 'Tenant-desc', comments: 'Tenant-comment' });
  w['dcim.location'] = await create(t, '/api/dcim/locations/', {
    name: 'Loc-Berlin', location_type: w['dcim.locationtype'].id, status: 'Active', facility: 'Loc-facility', asn: 65123, description: 'Loc-desc',
    physical_address: 'Loc-street', shipping_address: 'Loc-dock', contact_name: 'Loc-contact', contact_phone: 'Loc-phone', contact_email: 'loc@mail.example', comments: 'Loc-comment', time_zone: 'Europe/Berlin',
  });
  const at = { location: w['dcim.location'].id };
  w['extras.role'] = await create(t, '/api/extras/roles/', { name: 'Role-Edge', description: 'Role-desc', content_types: ['dcim.device', 'dcim.interfaceredundancygroup', 'extras.contactassociation'] });
  w['extras.status'] = await create(t, '/api/extras/statuses/', { name: 'Status-Live', description: 'Status-desc', content_types: ['dcim.device', 'dcim.controller'] });
  w['extras.tag'] = await create(t, '/api/extras/tags/', { name: 'Tag-Blue', description: 'Tag-desc', content_types: ['dcim.device', 'dcim.rack'] });
  w['dcim.manufacturer'] = await create(t, '/api/dcim/manufacturers/', { name: 'Maker-Acme', description: 'Maker-desc' });
  w['dcim.devicefamily'] = await create(t, '/api/dcim/device-families/', { name: 'Family-Fox', description: 'Family-desc' });
  w['dcim.devicetype'] = await create(t, '/api/dcim/device-types/', {
    model: 'DType-Box', manufacturer: w['dcim.manufacturer'].id, device_family: w['dcim.devicefamily'].id, part_number: 'DType-part', comments: 'DType-comment', subdevice_role: 'parent',
  });
  w['dcim.platform'] = await create(t, '/api/dcim/platforms/', { name: 'Plat-IOS', network_driver: 'cisco_ios', napalm_driver: 'napalm-ios', description: 'Plat-desc' });
  w['dcim.rackgroup'] = await create(t, '/api/dcim/rack-groups/', { name: 'RGroup-Row', description: 'RGroup-desc', ...at });
  w['dcim.rack'] = await create(t, '/api/dcim/racks/', { name: 'Rack-R1', facility_id: 'Rack-facility', serial: 'Rack-serial', asset_tag: 'Rack-asset', comments: 'Rack-comment', status: 'Active', ...at });
  w['dcim.virtualchassis'] = await create(t, '/api/dcim/virtual-chassis/', { name: 'VC-Stack', domain: 'VC-domain' });
  w['dcim.device'] = await create(t, '/api/dcim/devices/', {
    name: 'Dev-Core', device_type: w['dcim.devicetype'].id, role: w['extras.role'].id, status: 'Active', tenant: w['tenancy.tenant'].id, serial: 'Dev-serial', asset_tag: 'Dev-asset',
    comments: 'Dev-comment', virtual_chassis: w['dcim.virtualchassis'].id, vc_position: 1, platform: w['dcim.platform'].id, ...at,
  });
  w['dcim.inventoryitem'] = await create(t, '/api/dcim/inventory-items/', { device: w['dcim.device'].id, name: 'Inv-Card', label: 'Inv-label', part_id: 'Inv-part', serial: 'Inv-serial', asset_tag: 'Inv-asset', description: 'Inv-desc' });
  const admin = (await t.call('GET', '/api/users/users/?username=admin')).body.results[0];
  w['dcim.rackreservation'] = await create(t, '/api/dcim/rack-reservations/', { rack: w['dcim.rack'].id, units: [1], user: admin.id, description: 'Resv-desc' });
}

/** Device components and device type templates, each with a name, label and description of its own. */
async function components(t: TestApp, w: World): Promise<void> {
  const device = w['dcim.device'].id;
  const type = w['dcim.devicetype'].id;
  const kinds: [string, string, Record<string, unknown>][] = [
    ['dcim.consoleport', 'console-ports', {}], ['dcim.consoleserverport', 'console-server-ports', {}], ['dcim.powerport', 'power-ports', {}],
    ['dcim.poweroutlet', 'power-outlets', {}], ['dcim.interface', 'interfaces', { type: '1000base-t', status: 'Active' }], ['dcim.rearport', 'rear-ports', { type: 'lc', positions: 2 }],
    ['dcim.devicebay', 'device-bays', {}],
  ];
  for (const [id, path, extra] of kinds) {
    const tag = id.split('.')[1];
    w[id] = await create(t, `/api/dcim/${path}/`, { device, name: `${tag}-Name`, label: `${tag}-Label`, description: `${tag}-Desc`, ...extra });
    w[`${id}template`] = await create(t, `/api/dcim/${path.replace(/s$/, '')}-templates/`, {
      device_type: type, name: `${tag}T-Name`, label: `${tag}T-Label`, description: `${tag}T-Desc`, ...(extra.type ? { type: extra.type } : {}), ...(extra.positions ? { positions: 2 } : {}),
    });
  }
  w['dcim.frontport'] = await create(t, '/api/dcim/front-ports/', { device, name: 'frontport-Name', label: 'frontport-Label', description: 'frontport-Desc', type: 'lc', rear_port: w['dcim.rearport'].id, rear_port_position: 1 });
  w['dcim.frontporttemplate'] = await create(t, '/api/dcim/front-port-templates/', {
    device_type: type, name: 'frontportT-Name', label: 'frontportT-Label', description: 'frontportT-Desc', type: 'lc', rear_port_template: w['dcim.rearporttemplate'].id, rear_port_position: 1,
  });
  w.otherInterface = await create(t, '/api/dcim/interfaces/', { device, name: 'Other-Iface', type: '1000base-t', status: 'Active' });
  w['dcim.cable'] = await create(t, '/api/dcim/cables/', {
    termination_a_type: 'dcim.interface', termination_a_id: w['dcim.interface'].id, termination_b_type: 'dcim.interface', termination_b_id: w.otherInterface.id, status: 'Connected', label: 'Cable-Label',
  });
}

/** Module families, types and bays, and two modules: one in a device's bay, one in a bay of the first. */
async function modules(t: TestApp, w: World): Promise<void> {
  const outerMaker = await create(t, '/api/dcim/manufacturers/', { name: 'Maker-Outer' });
  const innerMaker = await create(t, '/api/dcim/manufacturers/', { name: 'Maker-Inner' });
  w['dcim.modulefamily'] = await create(t, '/api/dcim/module-families/', { name: 'MFam-Line', description: 'MFam-desc' });
  w['dcim.moduletype'] = await create(t, '/api/dcim/module-types/', { model: 'MType-Outer', manufacturer: outerMaker.id, module_family: w['dcim.modulefamily'].id, part_number: 'MType-part', comments: 'MType-comment' });
  w.innerType = await create(t, '/api/dcim/module-types/', { model: 'MType-Inner', manufacturer: innerMaker.id });
  w['dcim.modulebay'] = await create(t, '/api/dcim/module-bays/', { parent_device: w['dcim.device'].id, name: 'MBay-Slot', position: 'MBay-pos', label: 'MBay-label', description: 'MBay-desc' });
  w['dcim.module'] = await create(t, '/api/dcim/modules/', { module_type: w['dcim.moduletype'].id, parent_module_bay: w['dcim.modulebay'].id, status: 'Active', serial: 'Mod-serial', asset_tag: 'Mod-asset' });
  w.innerBay = await create(t, '/api/dcim/module-bays/', { parent_module: w['dcim.module'].id, name: 'MBay-Inner', position: 'MBayIn-pos' });
  w.innerModule = await create(t, '/api/dcim/modules/', { module_type: w.innerType.id, parent_module_bay: w.innerBay.id, status: 'Active', serial: 'ModIn-serial' });
  w['dcim.modulebaytemplate'] = await create(t, '/api/dcim/module-bay-templates/', { device_type: w['dcim.devicetype'].id, name: 'MBT-Slot', position: 'MBT-pos', label: 'MBT-label', description: 'MBT-desc' });
  w.moduleTypeBayTemplate = await create(t, '/api/dcim/module-bay-templates/', { module_type: w['dcim.moduletype'].id, name: 'MBTm-Slot' });
}

/** Redundancy groups, software, controllers, virtual device contexts and power. */
async function dcimMore(t: TestApp, w: World): Promise<void> {
  const at = { location: w['dcim.location'].id };
  w['dcim.interfaceredundancygroup'] = await create(t, '/api/dcim/interface-redundancy-groups/', { name: 'IRG-Group', protocol: 'hsrp', protocol_group_id: 'IRG-pgid', status: 'Active', description: 'IRG-desc' });
  w['dcim.interfaceredundancygroupassociation'] = await create(t, '/api/dcim/interface-redundancy-group-associations/', { interface_redundancy_group: w['dcim.interfaceredundancygroup'].id, interface: w['dcim.interface'].id, priority: 10 });
  w['dcim.deviceredundancygroup'] = await create(t, '/api/dcim/device-redundancy-groups/', { name: 'DRG-Group', status: 'Active', description: 'DRG-desc', comments: 'DRG-comment' });
  w['dcim.softwareversion'] = await create(t, '/api/dcim/software-versions/', { platform: w['dcim.platform'].id, version: 'SWV-1.2', alias: 'SWV-alias', status: 'Active' });
  w['dcim.softwareimagefile'] = await create(t, '/api/dcim/software-image-files/', { software_version: w['dcim.softwareversion'].id, image_file_name: 'SWImg.bin', image_file_checksum: 'SWImg-sum', status: 'Active' });
  w['dcim.devicetypetosoftwareimagefile'] = await create(t, '/api/dcim/device-types-to-software-image-files/', { device_type: w['dcim.devicetype'].id, software_image_file: w['dcim.softwareimagefile'].id });
  w['dcim.controller'] = await create(t, '/api/dcim/controllers/', { name: 'Ctl-One', description: 'Ctl-desc', status: 'Active', ...at });
  w['dcim.controllermanageddevicegroup'] = await create(t, '/api/dcim/controller-managed-device-groups/', { name: 'CMDG-One', controller: w['dcim.controller'].id, description: 'CMDG-desc' });
  w['dcim.virtualdevicecontext'] = await create(t, '/api/dcim/virtual-device-contexts/', { name: 'VDC-Ctx', device: w['dcim.device'].id, tenant: w['tenancy.tenant'].id, identifier: 7, status: 'Active', description: 'VDC-desc' });
  w['dcim.interfacevdcassignment'] = await create(t, '/api/dcim/interface-vdc-assignments/', { virtual_device_context: w['dcim.virtualdevicecontext'].id, interface: w['dcim.interface'].id });
  w['dcim.powerpanel'] = await create(t, '/api/dcim/power-panels/', { name: 'Panel-P1', ...at });
  w['dcim.powerfeed'] = await create(t, '/api/dcim/power-feeds/', { name: 'Feed-F1', power_panel: w['dcim.powerpanel'].id, status: 'Active', comments: 'Feed-comment' });
}

/** Providers, circuits and a termination; clusters, a virtual machine and its interface. */
async function circuitsAndVirtualization(t: TestApp, w: World): Promise<void> {
  w['circuits.provider'] = await create(t, '/api/circuits/providers/', { name: 'Prov-ISP', account: 'Prov-account', noc_contact: 'Prov-noc', admin_contact: 'Prov-admin', comments: 'Prov-comment', portal_url: 'https://portal.example' });
  w['circuits.providernetwork'] = await create(t, '/api/circuits/provider-networks/', { name: 'PNet-Core', provider: w['circuits.provider'].id, description: 'PNet-desc', comments: 'PNet-comment' });
  w['circuits.circuittype'] = await create(t, '/api/circuits/circuit-types/', { name: 'CType-Transit', description: 'CType-desc' });
  w['circuits.circuit'] = await create(t, '/api/circuits/circuits/', { cid: 'Circ-ID', provider: w['circuits.provider'].id, circuit_type: w['circuits.circuittype'].id, status: 'Active', description: 'Circ-desc', comments: 'Circ-comment' });
  w['circuits.circuittermination'] = await create(t, '/api/circuits/circuit-terminations/', {
    circuit: w['circuits.circuit'].id, term_side: 'A', location: w['dcim.location'].id, xconnect_id: 'Term-xc', pp_info: 'Term-pp', description: 'Term-desc',
  });
  w['virtualization.clustertype'] = await create(t, '/api/virtualization/cluster-types/', { name: 'CluType-VM', description: 'CluType-desc' });
  w['virtualization.clustergroup'] = await create(t, '/api/virtualization/cluster-groups/', { name: 'CluGroup-A', description: 'CluGroup-desc' });
  w['virtualization.cluster'] = await create(t, '/api/virtualization/clusters/', { name: 'Clu-One', cluster_type: w['virtualization.clustertype'].id, cluster_group: w['virtualization.clustergroup'].id, comments: 'Clu-comment' });
  w['virtualization.virtualmachine'] = await create(t, '/api/virtualization/virtual-machines/', { name: 'VM-Web', cluster: w['virtualization.cluster'].id, status: 'Active', comments: 'VM-comment' });
  w['virtualization.vminterface'] = await create(t, '/api/virtualization/interfaces/', { name: 'VMIf-eth0', virtual_machine: w['virtualization.virtualmachine'].id, status: 'Active', description: 'VMIf-desc' });
}

/** Namespaces, VRFs, route targets, RIRs, prefixes and addresses with their assignments, VLANs, services. */
async function ipam(t: TestApp, w: World): Promise<void> {
  w['ipam.namespace'] = await create(t, '/api/ipam/namespaces/', { name: 'NS-Blue', description: 'NS-desc' });
  w['ipam.vrf'] = await create(t, '/api/ipam/vrfs/', { name: 'VRF-Red', rd: '65000:77', description: 'VRF-desc', namespace: w['ipam.namespace'].id });
  w['ipam.vrfdeviceassignment'] = await create(t, '/api/ipam/vrf-device-assignments/', { vrf: w['ipam.vrf'].id, device: w['dcim.device'].id, name: 'VDA-name', rd: 'VDA-rd' });
  w['ipam.routetarget'] = await create(t, '/api/ipam/route-targets/', { name: '65000:99', description: 'RT-desc' });
  w['ipam.rir'] = await create(t, '/api/ipam/rirs/', { name: 'RIR-Ripe', description: 'RIR-desc' });
  w.prefix = await create(t, '/api/ipam/prefixes/', { prefix: '10.9.0.0/16', namespace: w['ipam.namespace'].id, status: 'Active' });
  w['ipam.vrfprefixassignment'] = await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: w['ipam.vrf'].id, prefix: w.prefix.id });
  w['ipam.prefixlocationassignment'] = await create(t, '/api/ipam/prefix-location-assignments/', { prefix: w.prefix.id, location: w['dcim.location'].id });
  w.address = await create(t, '/api/ipam/ip-addresses/', { address: '10.9.0.1/16', namespace: w['ipam.namespace'].id, status: 'Active' });
  w['ipam.ipaddresstointerface'] = await create(t, '/api/ipam/ip-address-to-interface/', { ip_address: w.address.id, interface: w['dcim.interface'].id });
  w.vmAddressLink = await create(t, '/api/ipam/ip-address-to-interface/', { ip_address: w.address.id, vm_interface: w['virtualization.vminterface'].id });
  w['ipam.vlangroup'] = await create(t, '/api/ipam/vlan-groups/', { name: 'VGroup-A', description: 'VGroup-desc', range: '1-4094' });
  w['ipam.vlan'] = await create(t, '/api/ipam/vlans/', { vid: 123, name: 'VLAN-Blue', description: 'VLAN-desc', status: 'Active', vlan_group: w['ipam.vlangroup'].id });
  w['ipam.vlanlocationassignment'] = await create(t, '/api/ipam/vlan-location-assignments/', { vlan: w['ipam.vlan'].id, location: w['dcim.location'].id });
  w['ipam.service'] = await create(t, '/api/ipam/services/', { name: 'Svc-SSH', protocol: 'tcp', ports: [22], device: w['dcim.device'].id, description: 'Svc-desc' });
}

/** Jobs and their runs (written to the tables: the API creates none of these), queues, buttons and hooks. */
async function jobs(t: TestApp, w: World): Promise<void> {
  w['extras.jobqueue'] = await create(t, '/api/extras/job-queues/', { name: 'JQ-Main', queue_type: 'celery', description: 'JQ-desc', tenant: w['tenancy.tenant'].id });
  const admin = (await t.call('GET', '/api/users/users/?username=admin')).body.results[0];
  const jobRow = (name: string, extra: Record<string, unknown> = {}) => ({
    module_name: 'search_jobs', job_class_name: name, grouping: 'Job-grouping', name, description: 'Job-desc', default_job_queue_id: w['extras.jobqueue'].id, installed: true, enabled: true, ...extra,
  });
  w['extras.job'] = { id: await insert(t, 'extras.job', { ...jobRow('Job-Backup'), task_queues: [] }) };
  const receiver = await insert(t, 'extras.job', { ...jobRow('Job-Receiver', { grouping: 'Recv-grouping', description: 'Recv-desc' }), task_queues: [], is_job_button_receiver: true, is_job_hook_receiver: true });
  w['extras.jobqueueassignment'] = await create(t, '/api/extras/job-queue-assignments/', { job: w['extras.job'].id, job_queue: w['extras.jobqueue'].id });
  w['extras.scheduledjob'] = { id: await insert(t, 'extras.scheduledjob', { name: 'Sched-Nightly', task: 'Sched-task', description: 'Sched-desc', crontab: 'Sched-cron', queue: 'Sched-queue', job_model_id: w['extras.job'].id, interval: 'daily', start_time: new Date().toISOString() }) };
  const now = new Date().toISOString();
  w['extras.jobresult'] = { id: await insert(t, 'extras.jobresult', { name: 'JR-run', task_name: 'JR-task', worker: 'JR-worker', traceback: 'JR-trace', job_model_id: w['extras.job'].id, user_id: admin.id, scheduled_job_id: w['extras.scheduledjob'].id, date_created: now, status: 'SUCCESS' }) };
  w['extras.joblogentry'] = { id: await insert(t, 'extras.joblogentry', { job_result_id: w['extras.jobresult'].id, log_level: 'warning', grouping: 'Log-grouping', message: 'Log-message', log_object: 'Log-object', absolute_url: '/log/url/', created: now }) };
  w['extras.fileproxy'] = { id: await insert(t, 'extras.fileproxy', { name: 'File-report.txt', job_result_id: w['extras.jobresult'].id, uploaded_at: now, file: 'file-store/report.txt' }) };
  w['extras.jobbutton'] = await create(t, '/api/extras/job-buttons/', { name: 'JB-Run', text: 'JB-text', job: receiver, content_types: ['dcim.device'], group_name: 'JB-group' });
  w['extras.jobhook'] = await create(t, '/api/extras/job-hooks/', { name: 'JH-Hook', job: receiver, content_types: ['dcim.device'], type_create: true });
}

/** Notes, contacts, groups, views and other extras attached to the device. */
async function extras(t: TestApp, w: World): Promise<void> {
  const device = w['dcim.device'].id;
  const onDevice = { associated_object_type: 'dcim.device', associated_object_id: device };
  w['extras.note'] = await create(t, '/api/extras/notes/', { assigned_object_type: 'dcim.device', assigned_object_id: device, note: 'Note-text' });
  w['extras.computedfield'] = await create(t, '/api/extras/computed-fields/', { content_type: 'dcim.device', key: 'cf_key', label: 'CompF-Label', description: 'CompF-desc', grouping: 'CompF-group', template: 'CompF-{{ obj.name }}', fallback_value: 'CompF-fallback' });
  w['extras.configcontext'] = await create(t, '/api/extras/config-contexts/', { name: 'CCtx-One', description: 'CCtx-desc', data: { ntp: 'CCtx-ntp-server' } });
  w['extras.configcontextschema'] = await create(t, '/api/extras/config-context-schemas/', { name: 'CCS-One', description: 'CCS-desc', data_schema: { type: 'object', title: 'CCS-title', properties: { ntp: { type: 'string' } } } });
  w['extras.contact'] = await create(t, '/api/extras/contacts/', { name: 'Contact-Alice', phone: '+1-555-0100', email: 'alice@contact.example', address: 'Contact-address', comments: 'Contact-comment' });
  w['extras.team'] = await create(t, '/api/extras/teams/', { name: 'Team-Ops', phone: '+1-555-0199', email: 'ops@team.example', address: 'Team-address', comments: 'Team-comment' });
  w['extras.contactassociation'] = await create(t, '/api/extras/contact-associations/', { contact: w['extras.contact'].id, ...onDevice, status: 'Active', role: w['extras.role'].id });
  w.teamAssociation = await create(t, '/api/extras/contact-associations/', { team: w['extras.team'].id, ...onDevice, status: 'Active', role: w['extras.role'].id });
  w['extras.customfield'] = await create(t, '/api/extras/custom-fields/', { label: 'CusF-Label', key: 'cusf_key', type: 'select', content_types: ['dcim.device'], description: 'CusF-desc', grouping: 'CusF-group', validation_regex: '^(Choice-.*|CusF-regex)$' });
  w['extras.customfieldchoice'] = await create(t, '/api/extras/custom-field-choices/', { custom_field: w['extras.customfield'].id, value: 'Choice-Gold' });
  w['extras.customlink'] = await create(t, '/api/extras/custom-links/', { name: 'CLink-One', content_type: 'dcim.device', text: 'CLink-text', target_url: 'https://clink.example/{{ obj.id }}', group_name: 'CLink-group', new_window: false });
  w['extras.dynamicgroup'] = await create(t, '/api/extras/dynamic-groups/', { name: 'DGroup-Parent', description: 'DGroup-desc', content_type: 'dcim.device', group_type: 'dynamic-set' });
  w.childGroup = await create(t, '/api/extras/dynamic-groups/', { name: 'DGroup-Child', content_type: 'dcim.device', group_type: 'dynamic-filter', filter: {} });
  w['extras.dynamicgroupmembership'] = await create(t, '/api/extras/dynamic-group-memberships/', { parent_group: w['extras.dynamicgroup'].id, group: w.childGroup.id, operator: 'union', weight: 10 });
  w.staticGroup = await create(t, '/api/extras/dynamic-groups/', { name: 'DGroup-Static', description: 'DStatic-desc', content_type: 'dcim.rack', group_type: 'static' });
  w['extras.staticgroupassociation'] = await create(t, '/api/extras/static-group-associations/', { dynamic_group: w.staticGroup.id, associated_object_type: 'dcim.rack', associated_object_id: w['dcim.rack'].id });
  const admin = (await t.call('GET', '/api/users/users/?username=admin')).body.results[0];
  w['extras.savedview'] = await create(t, '/api/extras/saved-views/', { name: 'SView-Mine', owner: admin.id, view: 'dcim:device_list', config: {} });
  w['extras.usersavedviewassociation'] = await create(t, '/api/extras/user-saved-view-associations/', { saved_view: w['extras.savedview'].id, user: admin.id, view_name: 'dcim:device_list' });
  w['extras.exporttemplate'] = await create(t, '/api/extras/export-templates/', { name: 'ETpl-One', content_type: 'dcim.device', description: 'ETpl-desc', template_code: 'ETpl-code', mime_type: 'text/etpl', file_extension: 'etpl' });
  w['extras.externalintegration'] = await create(t, '/api/extras/external-integrations/', { name: 'ExtI-One', remote_url: 'https://exti.example', ca_file_path: '/ExtI-ca' });
  w['extras.gitrepository'] = await create(t, '/api/extras/git-repositories/', { name: 'Git-Repo', slug: 'git_repo', remote_url: 'https://git.example/gitrepo-url.git', branch: 'Git-branch', provided_contents: [] });
  w['extras.graphqlquery'] = await create(t, '/api/extras/graphql-queries/', { name: 'GQL-One', query: 'query { devices { name } } # GQL-marker' });
  w['extras.imageattachment'] = { id: await insert(t, 'extras.imageattachment', { name: 'Img-Photo', content_type: 'dcim.device', object_id: device, image: 'image-attachments/photo.png', image_height: 1, image_width: 1, created: new Date().toISOString() }) };
  w['extras.metadatatype'] = await create(t, '/api/extras/metadata-types/', { name: 'MDType-Owner', description: 'MDType-desc', data_type: 'select', content_types: ['dcim.device'] });
  w['extras.metadatachoice'] = await create(t, '/api/extras/metadata-choices/', { metadata_type: w['extras.metadatatype'].id, value: 'MDChoice-Gold' });
  w.textMetadataType = await create(t, '/api/extras/metadata-types/', { name: 'MDType-Note', data_type: 'text', content_types: ['dcim.device'] });
  w['extras.objectmetadata'] = await create(t, '/api/extras/object-metadata/', { metadata_type: w.textMetadataType.id, assigned_object_type: 'dcim.device', assigned_object_id: device, value: 'OMeta-value', scoped_fields: ['name'] });
  w.contactMetadataType = await create(t, '/api/extras/metadata-types/', { name: 'MDType-Contact', data_type: 'contact-or-team', content_types: ['dcim.device'] });
  w.contactMetadata = await create(t, '/api/extras/object-metadata/', { metadata_type: w.contactMetadataType.id, assigned_object_type: 'dcim.device', assigned_object_id: device, contact: w['extras.contact'].id, scoped_fields: ['serial'] });
  w['extras.relationship'] = await create(t, '/api/extras/relationships/', { label: 'Rel-Label', key: 'rel_key', type: 'one-to-many', source_type: 'dcim.device', destination_type: 'dcim.rack', description: 'Rel-desc', source_label: 'Rel-source' });
  w['extras.relationshipassociation'] = await create(t, '/api/extras/relationship-associations/', { relationship: w['extras.relationship'].id, source_type: 'dcim.device', source_id: device, destination_type: 'dcim.rack', destination_id: w['dcim.rack'].id });
  w['extras.secret'] = await create(t, '/api/extras/secrets/', { name: 'Secret-Token', provider: 'environment-variable', parameters: { variable: 'SECRET_VAR' }, description: 'Secret-desc' });
  w['extras.secretsgroup'] = await create(t, '/api/extras/secrets-groups/', { name: 'SGroup-Creds', description: 'SGroup-desc' });
  w['extras.secretsgroupassociation'] = await create(t, '/api/extras/secrets-groups-associations/', { secrets_group: w['extras.secretsgroup'].id, secret: w['extras.secret'].id, access_type: 'HTTP(S)', secret_type: 'token' });
  w['extras.webhook'] = await create(t, '/api/extras/webhooks/', {
    name: 'Hook-One', content_types: ['dcim.device'], type_create: true, payload_url: 'https://hook.example/payload', additional_headers: 'X-Hook-Header: 1', body_template: 'Hook-body',
    http_content_type: 'application/hook', secret: 'Hook-secret', ca_file_path: '/Hook-ca',
  });
  w['extras.objectchange'] = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${device}&action=create`)).body.results[0];
}

/** Users, groups, tokens and permissions. */
async function users(t: TestApp, w: World): Promise<void> {
  w['users.user'] = await create(t, '/api/users/users/', { username: 'User-Bob', first_name: 'User-First', last_name: 'User-Last', email: 'bob@user.example', password: 'pw-secret-123' });
  w['auth.group'] = await create(t, '/api/users/groups/', { name: 'Group-Admins' });
  const admin = (await t.call('GET', '/api/users/users/?username=admin')).body.results[0];
  w['users.token'] = { id: await insert(t, 'users.token', { user_id: admin.id, key: 'f'.repeat(40), description: 'Token-desc', write_enabled: true, created: new Date().toISOString() }) };
  w['users.objectpermission'] = await create(t, '/api/users/permissions/', { name: 'Perm-View', description: 'Perm-desc', actions: ['view'], object_types: ['dcim.device'] });
  w['contenttypes.contenttype'] = (await t.call('GET', '/api/extras/content-types/?app_label=dcim&model=devicetype')).body.results[0];
}

/** The cloud and wireless apps (reference nautobot/{cloud,wireless}/filters.py `q`). */
async function cloudAndWireless(t: TestApp, w: World): Promise<void> {
  const provider = await create(t, '/api/dcim/manufacturers/', { name: 'Maker-Cloud' });
  w['cloud.cloudaccount'] = await create(t, '/api/cloud/cloud-accounts/', { name: 'CAcct-Prod', account_number: 'CAcct-Number', description: 'CAcct-desc', provider: provider.id });
  w['cloud.cloudresourcetype'] = await create(t, '/api/cloud/cloud-resource-types/', { name: 'CRType-VPC', description: 'CRType-desc', provider: provider.id, content_types: ['cloud.cloudnetwork', 'cloud.cloudservice'] });
  const owned = { cloud_account: w['cloud.cloudaccount'].id, cloud_resource_type: w['cloud.cloudresourcetype'].id };
  w.parentNetwork = await create(t, '/api/cloud/cloud-networks/', { name: 'CNet-Parent', description: 'CNetParent-desc', ...owned });
  w['cloud.cloudnetwork'] = await create(t, '/api/cloud/cloud-networks/', { name: 'CNet-Sub', description: 'CNet-desc', parent: w.parentNetwork.id, ...owned });
  w['cloud.cloudservice'] = await create(t, '/api/cloud/cloud-services/', { name: 'CSvc-LB', description: 'CSvc-desc', ...owned });
  w['cloud.cloudservicenetworkassignment'] = await create(t, '/api/cloud/cloud-service-network-assignments/', { cloud_service: w['cloud.cloudservice'].id, cloud_network: w['cloud.cloudnetwork'].id });
  const prefix = await create(t, '/api/ipam/prefixes/', { prefix: '10.77.0.0/16', status: 'Active' });
  w['cloud.cloudnetworkprefixassignment'] = await create(t, '/api/cloud/cloud-network-prefix-assignments/', { cloud_network: w['cloud.cloudnetwork'].id, prefix: prefix.id });
  w['wireless.supporteddatarate'] = await create(t, '/api/wireless/supported-data-rates/', { standard: '802.11ax', rate: 86000, mcs_index: 7 });
  w['wireless.radioprofile'] = await create(t, '/api/wireless/radio-profiles/', { name: 'Radio-Campus', regulatory_domain: 'DE', frequency: '5GHz' });
  w['wireless.wirelessnetwork'] = await create(t, '/api/wireless/wireless-networks/', { name: 'WNet-Corp', ssid: 'WNet-SSID', description: 'WNet-desc', mode: 'Central', authentication: 'WPA2 Personal' });
  const group = w['dcim.controllermanageddevicegroup'].id;
  w['wireless.controllermanageddevicegroupwirelessnetworkassignment'] = await create(t, '/api/wireless/controller-managed-device-group-wireless-network-assignments/', { controller_managed_device_group: group, wireless_network: w['wireless.wirelessnetwork'].id });
  w['wireless.controllermanageddevicegroupradioprofileassignment'] = await create(t, '/api/wireless/controller-managed-device-group-radio-profile-assignments/', { controller_managed_device_group: group, radio_profile: w['wireless.radioprofile'].id });
}

/** One object of every served model (and a few more), made through the API where it can make them. */
export async function buildWorld(t: TestApp): Promise<World> {
  const w: World = {};
  for (const step of [dcim, components, modules, dcimMore, circuitsAndVirtualization, ipam, jobs, extras, users, cloudAndWireless]) await step(t, w);
  return w;
}
