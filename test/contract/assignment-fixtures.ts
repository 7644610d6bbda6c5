import { create } from '../helpers/app.js';
import { USED, device, each } from './dcim-fixtures.js';
import type { Ctx } from './dcim-fixtures.js';
import type { Edit, Fixture } from './fixtures.js';
import type { TestApp } from '../helpers/app.js';

/** Keys of the objects a fixture writes to its `text` field beyond those of `make` (see Fixture `edit`). */
const EDITS: Edit[] = ['patched', 'put', 'bulk'];
const KEYS = [...USED, ...EDITS];

/** A device with one interface per `i`. */
async function interfaces(t: TestApp): Promise<Ctx> {
  const where = await device(t);
  return { ...where, ...await each(t, '/api/dcim/interfaces/', USED, (i) => ({ device: where.device, name: `eth${i}`, type: '1000base-t', status: 'Active' }), 'iface') };
}

/** A device type per `i` and a software image file per `i` and per edit. */
async function imageFiles(t: TestApp): Promise<Ctx> {
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'fx-maker' });
  const platform = await create(t, '/api/dcim/platforms/', { name: 'fx-os' });
  const version = await create(t, '/api/dcim/software-versions/', { platform: platform.id, version: '1.0', status: 'Active' });
  return {
    ...await each(t, '/api/dcim/device-types/', USED, (i) => ({ model: `dt-${i}`, manufacturer: maker.id }), 'type'),
    ...await each(t, '/api/dcim/software-image-files/', KEYS, (k) => ({ software_version: version.id, image_file_name: `img-${k}.bin`, status: 'Active' }), 'file'),
  };
}

/** Interfaces per `i` and a virtual device context per `i` and per edit, on one device. */
async function contexts(t: TestApp): Promise<Ctx> {
  const where = await interfaces(t);
  return { ...where, ...await each(t, '/api/dcim/virtual-device-contexts/', KEYS, (k) => ({ device: where.device, name: `vdc-${k}`, identifier: KEYS.indexOf(k as never) + 1, status: 'Active' }), 'vdc') };
}

/** Contract fixtures for the dcim assignment models, which have no free string field: they edit a number or a related object. */
export const ASSIGNMENT_FIXTURES: Fixture[] = [
  {
    model: 'dcim.devicetypetosoftwareimagefile',
    path: '/api/dcim/device-types-to-software-image-files/',
    setup: imageFiles,
    make: (i, ctx) => ({ device_type: ctx[`type${i}`], software_image_file: ctx[`file${i}`] }),
    text: 'software_image_file',
    edit: (tag, ctx) => ctx[`file${tag}`],
  },
  {
    model: 'dcim.interfaceredundancygroupassociation',
    path: '/api/dcim/interface-redundancy-group-associations/',
    setup: async (t) => ({ ...await interfaces(t), group: (await create(t, '/api/dcim/interface-redundancy-groups/', { name: 'fx-irg', protocol: 'hsrp', status: 'Active' })).id }),
    make: (i, ctx) => ({ interface_redundancy_group: ctx.group, interface: ctx[`iface${i}`], priority: i }),
    text: 'priority',
    edit: (tag) => 100 * (EDITS.indexOf(tag) + 1),
  },
  {
    model: 'dcim.interfacevdcassignment',
    path: '/api/dcim/interface-vdc-assignments/',
    setup: contexts,
    make: (i, ctx) => ({ virtual_device_context: ctx[`vdc${i}`], interface: ctx[`iface${i}`] }),
    text: 'virtual_device_context',
    edit: (tag, ctx) => ctx[`vdc${tag}`],
  },
];
