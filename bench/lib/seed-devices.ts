import { COLORS } from './names.js';
import { createAll, missing, someCustomFields, someTags } from './seed-context.js';
import { seedRacks } from './seed-racks.js';
import { GUEST_PLATFORMS, macAddress } from './seed-virtualization.js';
import type { Rng } from './prng.js';
import type { Mount } from './seed-racks.js';
import type { Ref, SeedContext, Shape } from './seed-context.js';

/** Device models per manufacturer: rack units and the network OS they run (null: a guest OS is picked). */
const DEVICE_MODELS: Record<string, { model: string; u: number; platform: string | null }[]> = {
  Cisco: [{ model: 'C9300-48P', u: 1, platform: 'Cisco IOS-XE' }, { model: 'N9K-C93180YC-FX', u: 1, platform: 'Cisco NX-OS' }, { model: 'ASR1001-X', u: 1, platform: 'Cisco IOS-XE' }],
  Juniper: [{ model: 'EX4300-48T', u: 1, platform: 'Juniper Junos' }, { model: 'QFX5120-48Y', u: 1, platform: 'Juniper Junos' }, { model: 'MX204', u: 1, platform: 'Juniper Junos' }],
  Arista: [{ model: 'DCS-7050SX3-48YC8', u: 1, platform: 'Arista EOS' }, { model: 'DCS-7280SR-48C6', u: 1, platform: 'Arista EOS' }],
  Nokia: [{ model: '7750 SR-1', u: 2, platform: 'Nokia SR OS' }],
  Dell: [{ model: 'PowerEdge R650', u: 1, platform: null }, { model: 'PowerEdge R750', u: 2, platform: null }],
};
const NETWORK_PLATFORMS = [
  { name: 'Cisco IOS-XE', manufacturer: 'Cisco', network_driver: 'cisco_xe', napalm_driver: 'ios' },
  { name: 'Cisco NX-OS', manufacturer: 'Cisco', network_driver: 'cisco_nxos', napalm_driver: 'nxos' },
  { name: 'Juniper Junos', manufacturer: 'Juniper', network_driver: 'juniper_junos', napalm_driver: 'junos' },
  { name: 'Arista EOS', manufacturer: 'Arista', network_driver: 'arista_eos', napalm_driver: 'eos' },
  { name: 'Nokia SR OS', manufacturer: 'Nokia', network_driver: 'nokia_sros', napalm_driver: 'sros' },
];
export const ROLES = [
  { name: 'Access Switch', code: 'as' }, { name: 'Core Router', code: 'cr' }, { name: 'Firewall', code: 'fw' }, { name: 'Server', code: 'srv' },
];
const UPLINK_TYPES = ['10gbase-x-sfpp', '25gbase-x-sfp28', '100gbase-x-qsfp28'];
const NEEDS = ['dcim/devices', 'dcim/device-types', 'dcim/manufacturers', 'extras/roles'];

/**
 * Where a device's interfaces sit in its list (scale.interfacesPerDevice of them): access
 * ports Ethernet1/1.., then two uplinks, then Management1.
 */
export function interfaceLayout(per: number): { access: number; uplinks: [number, number]; mgmt: number } {
  return { access: per - 3, uplinks: [per - 3, per - 2], mgmt: per - 1 };
}

/** Objects the devices phase makes (racks and rack groups estimated). */
export function plannedDevices(ctx: SeedContext, shape: Shape): number {
  if (missing(ctx, NEEDS).length) return 0;
  const s = ctx.scale;
  const kinds = Object.keys(DEVICE_MODELS).length + Object.values(DEVICE_MODELS).flat().length + ROLES.length;
  const platforms = ctx.catalog.has('dcim', 'platforms') ? NETWORK_PLATFORMS.length + GUEST_PLATFORMS.length : 0;
  const racks = ctx.catalog.has('dcim', 'racks') ? Math.round(s.devices / s.devicesPerRack + shape.rooms * 0.6) : 0;
  return kinds + platforms + racks + s.devices + (ctx.catalog.has('dcim', 'interfaces') ? s.devices * s.interfacesPerDevice : 0);
}

type Kinds = { types: { id: string; maker: string; platform: string | null }[]; roles: Ref[] };

/** Manufacturers, platforms, device types and device roles. */
async function seedDeviceKinds(ctx: SeedContext, rng: Rng): Promise<Kinds> {
  const makers = await createAll<Ref>(ctx, 'manufacturers', '/api/dcim/manufacturers/', Object.keys(DEVICE_MODELS).map((name) => ({ name })));
  const models = makers.flatMap((m) => DEVICE_MODELS[m.name].map((d) => ({ maker: m, ...d })));
  const made = await createAll<{ id: string }>(ctx, 'device types', '/api/dcim/device-types/', models.map((d) => ({ manufacturer: d.maker.id, model: d.model, u_height: d.u })));
  const roles = await createAll<Ref>(ctx, 'roles', '/api/extras/roles/', ROLES.map((r) => ({ name: r.name, color: rng.pick(COLORS), content_types: ['dcim.device'] })));
  if (ctx.catalog.has('dcim', 'platforms')) {
    const makerId = new Map(makers.map((m) => [m.name, m.id]));
    const bodies = [
      ...NETWORK_PLATFORMS.map((p) => ({ ...p, manufacturer: makerId.get(p.manufacturer), description: `${p.name} devices` })),
      ...GUEST_PLATFORMS.map((name) => ({ name, manufacturer: null, description: 'guest and server operating system' })),
    ];
    for (const p of await createAll<Ref>(ctx, 'platforms', '/api/dcim/platforms/', bodies)) ctx.platforms.set(p.name, p.id);
  }
  return { types: models.map((d, i) => ({ id: made[i].id, maker: d.maker.name, platform: d.platform })), roles };
}

/** Manufacturers, platforms, device types, roles, racks, devices mounted in them, and their interfaces. */
export async function seedDevices(ctx: SeedContext): Promise<string | null> {
  const absent = missing(ctx, NEEDS);
  if (absent.length) return `devices skipped: no ${absent.join(', ')} endpoint`;
  const rng = ctx.rng('devices');
  const kinds = await seedDeviceKinds(ctx, rng);
  const planned = Array.from({ length: ctx.scale.devices }, (_, i) => planDevice(ctx, rng, kinds, i));
  const mounts = await seedRacks(ctx, planned.map((p) => p.room));
  const place = ctx.rng('device placement');
  const bodies = planned.map((p, i) => ({ ...p.body, ...placement(ctx, place, { plan: p, kinds, mount: mounts?.[i] ?? null }) }));
  const devices = await createAll<{ id: string }>(ctx, 'devices', '/api/dcim/devices/', bodies);
  ctx.devices = devices.map((d, i) => ({ id: d.id, name: String(bodies[i].name), site: ctx.rooms[planned[i].room].site, room: ctx.rooms[planned[i].room].id, role: ROLES[planned[i].role].code, interfaces: [] }));
  if (!ctx.catalog.has('dcim', 'interfaces')) return 'interfaces skipped: no dcim/interfaces endpoint';
  await seedInterfaces(ctx);
  return null;
}

type PlannedDevice = { room: number; role: number; type: number; body: Record<string, unknown> };

function planDevice(ctx: SeedContext, rng: Rng, kinds: Kinds, i: number): PlannedDevice {
  const room = rng.int(0, ctx.rooms.length - 1);
  const role = rng.int(0, ROLES.length - 1);
  const type = rng.int(0, kinds.types.length - 1);
  const site = ctx.rooms[room].site;
  return {
    room, role, type,
    body: {
      name: `${site.toLowerCase()}-${ROLES[role].code}-${String(i + 1).padStart(5, '0')}`, device_type: kinds.types[type].id, role: kinds.roles[role].id,
      location: ctx.rooms[room].id, status: ctx.status('dcim.device', rng), tenant: rng.chance(0.5) ? rng.pick(ctx.tenants).id : null,
      serial: `SN${rng.int(10_000_000, 99_999_999)}`, tags: someTags(ctx, rng), custom_fields: someCustomFields(ctx, 'dcim.device', rng),
    },
  };
}

/** Rack mount, platform (the type's network OS, or a guest OS on servers) and, for servers, a cluster at the site. */
function placement(ctx: SeedContext, rng: Rng, o: { plan: PlannedDevice; kinds: Kinds; mount: Mount | null }): Record<string, unknown> {
  const type = o.kinds.types[o.plan.type];
  const guests = GUEST_PLATFORMS.map((p) => ctx.platforms.get(p)).filter(Boolean);
  const platform = type.platform ? ctx.platforms.get(type.platform) : guests.length ? rng.pick(guests) : undefined;
  const clusters = ctx.clusters.get(ctx.rooms[o.plan.room].site) ?? [];
  const host = ROLES[o.plan.role].code === 'srv' && clusters.length && rng.chance(0.8);
  return { ...(o.mount ?? {}), platform: platform ?? null, cluster: host ? rng.pick(clusters).id : null };
}

/** Each device's interfaces (access ports on site VLANs, tagged uplinks, a management port), ~1000 per request. */
async function seedInterfaces(ctx: SeedContext): Promise<void> {
  const rng = ctx.rng('interfaces');
  const per = ctx.scale.interfacesPerDevice;
  const step = Math.max(1, Math.floor(1000 / per));
  for (let d = 0; d < ctx.devices.length; d += step) {
    const chunk = ctx.devices.slice(d, d + step);
    const bodies = chunk.flatMap((dev, j) => Array.from({ length: per }, (_, k) => interfaceBody(ctx, rng, { device: dev.id, vlans: ctx.vlans.get(dev.site) ?? [], k, n: (d + j) * per + k })));
    const made = (await ctx.client.ok<{ id: string }[]>('POST', '/api/dcim/interfaces/', bodies)).body;
    chunk.forEach((dev, j) => { dev.interfaces = made.slice(j * per, (j + 1) * per).map((m) => m.id); });
    ctx.progress.tick('interfaces', bodies.length);
    ctx.created.interfaces = (ctx.created.interfaces ?? 0) + bodies.length;
  }
}

function interfaceBody(ctx: SeedContext, rng: Rng, o: { device: string; vlans: { id: string }[]; k: number; n: number }): Record<string, unknown> {
  const layout = interfaceLayout(ctx.scale.interfacesPerDevice);
  const base = { device: o.device, status: ctx.status('dcim.interface', rng), enabled: rng.chance(0.9) };
  if (o.k === layout.mgmt) return { ...base, name: 'Management1', type: '1000base-t', mgmt_only: true, description: 'out-of-band management', mac_address: macAddress(0x800000 + o.n) };
  if (layout.uplinks.includes(o.k)) {
    const tagged = o.vlans.length ? rng.sample(o.vlans, rng.int(2, 6)).map((v) => v.id) : [];
    return { ...base, name: `Ethernet1/${o.k + 1}`, type: rng.pick(UPLINK_TYPES), description: 'uplink', mtu: 9216, mode: tagged.length ? 'tagged' : '', tagged_vlans: tagged };
  }
  const vlan = o.vlans.length && rng.chance(0.5) ? rng.pick(o.vlans).id : null;
  return { ...base, name: `Ethernet1/${o.k + 1}`, type: '1000base-t', description: '', mtu: rng.chance(0.1) ? 9216 : null, mode: vlan ? 'access' : '', untagged_vlan: vlan };
}
