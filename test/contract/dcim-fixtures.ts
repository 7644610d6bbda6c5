import { create } from '../helpers/app.js';
import type { Fixture } from './fixtures.js';
import type { TestApp } from '../helpers/app.js';

/** The `i` values the generic suite passes to `make`. */
export const USED = [1, 10, 11, 12, 20, 30];

const LOCATED = ['dcim.device', 'dcim.rack', 'dcim.rackgroup', 'dcim.powerpanel', 'dcim.module', 'dcim.controller', 'virtualization.cluster', 'circuits.circuittermination'];

export type Ctx = Record<string, unknown>;

/** Creates one object per `key` in one bulk request; returns `{<prefix><key>: id}`. */
export async function each(t: TestApp, path: string, keys: (number | string)[], body: (key: number | string) => Ctx, prefix: string): Promise<Ctx> {
  const made = await create(t, path, keys.map(body));
  return Object.fromEntries(made.map((o: { id: string }, n: number) => [`${prefix}${keys[n]}`, o.id]));
}

/** A location whose type permits every located model. */
export async function site(t: TestApp, name = 'fx-site'): Promise<Ctx> {
  const type = (await t.call('GET', '/api/dcim/location-types/?name=fx-type')).body.results[0] ?? await create(t, '/api/dcim/location-types/', { name: 'fx-type', content_types: LOCATED });
  return { location: (await create(t, '/api/dcim/locations/', { name, location_type: type.id, status: 'Active' })).id };
}

/** A manufacturer and a parent device type. */
export async function deviceType(t: TestApp): Promise<Ctx> {
  const manufacturer = await create(t, '/api/dcim/manufacturers/', { name: 'fx-maker' });
  const type = await create(t, '/api/dcim/device-types/', { model: 'fx-type', manufacturer: manufacturer.id, subdevice_role: 'parent' });
  return { manufacturer: manufacturer.id, device_type: type.id };
}

/** One device (with its site, type and role). */
export async function device(t: TestApp): Promise<Ctx> {
  const [where, what] = [await site(t), await deviceType(t)];
  const role = await create(t, '/api/extras/roles/', { name: 'fx-role', content_types: ['dcim.device'] });
  const made = await create(t, '/api/dcim/devices/', { name: 'fx-device', location: where.location, device_type: what.device_type, role: role.id, status: 'Active' });
  return { ...where, ...what, role: role.id, device: made.id };
}

/** A cluster (with its type) at a site. */
async function cluster(t: TestApp): Promise<Ctx> {
  const type = await create(t, '/api/virtualization/cluster-types/', { name: 'fx-ct' });
  return { cluster: (await create(t, '/api/virtualization/clusters/', { name: 'fx-cluster', cluster_type: type.id })).id };
}

/** A fixture of a component kind on one device: `name` unique per device, `description` as the text field. */
function onDevice(model: string, path: string, extra: (i: number, ctx: Ctx) => Ctx = () => ({}), owner = 'device'): Fixture {
  return { model, path, setup: device, make: (i, ctx) => ({ [owner]: ctx.device, name: `${model.split('.')[1]}-${i}`, description: `desc ${i}`, ...extra(i, ctx) }), text: 'description' };
}

/** A fixture of a template kind on one device type. */
function onType(model: string, path: string, extra: (i: number, ctx: Ctx) => Ctx = () => ({})): Fixture {
  return { model, path, setup: deviceType, make: (i, ctx) => ({ device_type: ctx.device_type, name: `${model.split('.')[1]}-${i}`, description: `desc ${i}`, ...extra(i, ctx) }), text: 'description' };
}

/** A fixture of a model with a unique name and a description, and no required relation. */
function named(model: string, path: string, text = 'description'): Fixture {
  return { model, path, make: (i) => ({ name: `${model.split('.')[1]}-${i}`, [text]: `desc ${i}` }), text };
}

/** A module type per `i`, so that modules of the same serial differ by type. */
async function moduleTypes(t: TestApp): Promise<Ctx> {
  const where = await site(t);
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'fx-maker' });
  return { ...where, ...await each(t, '/api/dcim/module-types/', USED, (i) => ({ model: `mt-${i}`, manufacturer: maker.id }), 'type') };
}

/** A platform and one software version of it. */
async function software(t: TestApp): Promise<Ctx> {
  const platform = await create(t, '/api/dcim/platforms/', { name: 'fx-os' });
  return { platform: platform.id, version: (await create(t, '/api/dcim/software-versions/', { platform: platform.id, version: 'fx-1.0', status: 'Active' })).id };
}

/** Contract fixtures for dcim models beyond the main ones: modules, redundancy groups, software, controller groups. */
export const DCIM_MORE_FIXTURES: Fixture[] = [
  {
    model: 'dcim.module',
    path: '/api/dcim/modules/',
    setup: moduleTypes,
    make: (i, ctx) => ({ module_type: ctx[`type${i}`], location: ctx.location, status: 'Active', serial: `desc ${i}` }),
    text: 'serial',
  },
  {
    model: 'dcim.interfaceredundancygroup',
    path: '/api/dcim/interface-redundancy-groups/',
    make: (i) => ({ name: `irg-${i}`, protocol: 'hsrp', protocol_group_id: String(i), status: 'Active', description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'dcim.softwareversion',
    path: '/api/dcim/software-versions/',
    setup: software,
    make: (i, ctx) => ({ platform: ctx.platform, version: `${i}.0`, status: 'Active', alias: `desc ${i}` }),
    text: 'alias',
  },
  {
    model: 'dcim.softwareimagefile',
    path: '/api/dcim/software-image-files/',
    setup: software,
    make: (i, ctx) => ({ software_version: ctx.version, image_file_name: `img-${i}.bin`, status: 'Active', image_file_checksum: `desc ${i}` }),
    text: 'image_file_checksum',
  },
  {
    model: 'dcim.controllermanageddevicegroup',
    path: '/api/dcim/controller-managed-device-groups/',
    setup: async (t) => ({ controller: (await create(t, '/api/dcim/controllers/', { name: 'fx-controller', location: (await site(t)).location, status: 'Active' })).id }),
    make: (i, ctx) => ({ name: `cmdg-${i}`, controller: ctx.controller, weight: i, description: `desc ${i}` }),
    text: 'description',
  },
];

/** Contract fixtures for the main dcim and virtualization models (racks, devices, components, templates, power, clusters, VMs). */
export const DCIM_FIXTURES: Fixture[] = [
  named('dcim.manufacturer', '/api/dcim/manufacturers/'),
  named('dcim.devicefamily', '/api/dcim/device-families/'),
  named('dcim.modulefamily', '/api/dcim/module-families/'),
  named('dcim.platform', '/api/dcim/platforms/'),
  named('dcim.virtualchassis', '/api/dcim/virtual-chassis/', 'domain'),
  { ...named('dcim.deviceredundancygroup', '/api/dcim/device-redundancy-groups/'), make: (i) => ({ name: `drg-${i}`, status: 'Active', description: `desc ${i}` }) },
  named('virtualization.clustertype', '/api/virtualization/cluster-types/'),
  named('virtualization.clustergroup', '/api/virtualization/cluster-groups/'),
  { model: 'dcim.rackgroup', path: '/api/dcim/rack-groups/', setup: (t) => site(t), make: (i, ctx) => ({ name: `rg-${i}`, location: ctx.location, description: `desc ${i}` }), text: 'description' },
  {
    model: 'dcim.rack',
    path: '/api/dcim/racks/',
    setup: async (t) => {
      const where = await site(t);
      return { ...where, rack_group: (await create(t, '/api/dcim/rack-groups/', { name: 'fx-rg', location: where.location })).id };
    },
    make: (i, ctx) => ({ name: `rack-${i}`, location: ctx.location, rack_group: ctx.rack_group, status: 'Active', comments: `desc ${i}` }),
    text: 'comments',
  },
  {
    model: 'dcim.rackreservation',
    path: '/api/dcim/rack-reservations/',
    setup: async (t) => {
      const where = await site(t);
      const group = await create(t, '/api/dcim/rack-groups/', { name: 'fx-rg', location: where.location });
      return { rack: (await create(t, '/api/dcim/racks/', { name: 'fx-rack', location: where.location, rack_group: group.id, status: 'Active' })).id };
    },
    make: (i, ctx) => ({ rack: ctx.rack, units: [i], description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'dcim.devicetype',
    path: '/api/dcim/device-types/',
    setup: async (t) => ({ manufacturer: (await create(t, '/api/dcim/manufacturers/', { name: 'fx-maker' })).id }),
    make: (i, ctx) => ({ model: `type-${i}`, manufacturer: ctx.manufacturer, part_number: `desc ${i}` }),
    text: 'part_number',
  },
  {
    model: 'dcim.moduletype',
    path: '/api/dcim/module-types/',
    setup: async (t) => ({ manufacturer: (await create(t, '/api/dcim/manufacturers/', { name: 'fx-maker' })).id }),
    make: (i, ctx) => ({ model: `mtype-${i}`, manufacturer: ctx.manufacturer, part_number: `desc ${i}` }),
    text: 'part_number',
  },
  {
    model: 'dcim.device',
    path: '/api/dcim/devices/',
    setup: device,
    make: (i, ctx) => ({ name: `device-${i}`, location: ctx.location, device_type: ctx.device_type, role: ctx.role, status: 'Active', serial: `desc ${i}` }),
    text: 'serial',
  },
  onDevice('dcim.consoleport', '/api/dcim/console-ports/'),
  onDevice('dcim.consoleserverport', '/api/dcim/console-server-ports/'),
  onDevice('dcim.powerport', '/api/dcim/power-ports/'),
  onDevice('dcim.poweroutlet', '/api/dcim/power-outlets/'),
  onDevice('dcim.interface', '/api/dcim/interfaces/', () => ({ type: '1000base-t', status: 'Active' })),
  onDevice('dcim.devicebay', '/api/dcim/device-bays/'),
  onDevice('dcim.modulebay', '/api/dcim/module-bays/', () => ({}), 'parent_device'),
  onDevice('dcim.inventoryitem', '/api/dcim/inventory-items/', (i) => ({ asset_tag: `tag-${i}` })),
  onDevice('dcim.virtualdevicecontext', '/api/dcim/virtual-device-contexts/', (i) => ({ identifier: i, status: 'Active' })),
  onType('dcim.consoleporttemplate', '/api/dcim/console-port-templates/'),
  onType('dcim.consoleserverporttemplate', '/api/dcim/console-server-port-templates/'),
  onType('dcim.powerporttemplate', '/api/dcim/power-port-templates/'),
  onType('dcim.poweroutlettemplate', '/api/dcim/power-outlet-templates/'),
  onType('dcim.interfacetemplate', '/api/dcim/interface-templates/', () => ({ type: '1000base-t' })),
  onType('dcim.rearporttemplate', '/api/dcim/rear-port-templates/', () => ({ type: 'lc' })),
  onType('dcim.devicebaytemplate', '/api/dcim/device-bay-templates/'),
  onType('dcim.modulebaytemplate', '/api/dcim/module-bay-templates/'),
  {
    ...onType('dcim.frontporttemplate', '/api/dcim/front-port-templates/', (i, ctx) => ({ type: 'lc', rear_port_template: ctx.rear, rear_port_position: i })),
    setup: async (t) => {
      const what = await deviceType(t);
      return { ...what, rear: (await create(t, '/api/dcim/rear-port-templates/', { device_type: what.device_type, name: 'rear', type: 'lc', positions: 64 })).id };
    },
  },
  {
    model: 'dcim.powerpanel',
    path: '/api/dcim/power-panels/',
    setup: async (t) => {
      const sites: Ctx = {};
      for (const i of USED) sites[`site${i}`] = (await site(t, `fx-site-${i}`)).location;
      return sites;
    },
    make: (i, ctx) => ({ name: `panel-${i}`, location: ctx[`site${i}`] }),
    text: 'name',
  },
  {
    model: 'dcim.powerfeed',
    path: '/api/dcim/power-feeds/',
    setup: async (t) => ({ panel: (await create(t, '/api/dcim/power-panels/', { name: 'fx-panel', location: (await site(t)).location })).id }),
    make: (i, ctx) => ({ name: `feed-${i}`, power_panel: ctx.panel, status: 'Active', comments: `desc ${i}` }),
    text: 'comments',
  },
  {
    model: 'dcim.controller',
    path: '/api/dcim/controllers/',
    setup: (t) => site(t),
    make: (i, ctx) => ({ name: `controller-${i}`, location: ctx.location, status: 'Active', description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'virtualization.cluster',
    path: '/api/virtualization/clusters/',
    setup: async (t) => ({ type: (await create(t, '/api/virtualization/cluster-types/', { name: 'fx-ct' })).id, ...await site(t) }),
    make: (i, ctx) => ({ name: `cluster-${i}`, cluster_type: ctx.type, location: ctx.location, comments: `desc ${i}` }),
    text: 'comments',
  },
  {
    model: 'virtualization.virtualmachine',
    path: '/api/virtualization/virtual-machines/',
    setup: cluster,
    make: (i, ctx) => ({ name: `vm-${i}`, cluster: ctx.cluster, status: 'Active', comments: `desc ${i}` }),
    text: 'comments',
  },
  {
    model: 'virtualization.vminterface',
    path: '/api/virtualization/interfaces/',
    setup: async (t) => ({ vm: (await create(t, '/api/virtualization/virtual-machines/', { name: 'fx-vm', cluster: (await cluster(t)).cluster, status: 'Active' })).id }),
    make: (i, ctx) => ({ name: `eth${i}`, virtual_machine: ctx.vm, status: 'Active', description: `desc ${i}` }),
    text: 'description',
  },
];
