import { createAll, missing, someCustomFields, someTags } from './seed-context.js';
import type { Rng } from './prng.js';
import type { Ref, SeedContext } from './seed-context.js';

/** Where a device is mounted. */
export type Mount = { rack: string; position: number; face: 'front' };

/** Rack units between the bottoms of two devices in a rack (room for 2U types, a blank between). */
const SLOT_UNITS = 4;
/** Racks per rack group (a row). */
const RACKS_PER_ROW = 10;

/** Racks each room gets for the devices planned in it: enough for them, sometimes a spare; empty rooms sometimes one. */
export function planRacks(ctx: SeedContext, devicesPerRoom: number[], rng: Rng): number[] {
  return devicesPerRoom.map((n) => (n ? Math.ceil(n / ctx.scale.devicesPerRack) + (rng.chance(0.3) ? 1 : 0) : rng.chance(0.4) ? 1 : 0));
}

/**
 * Rack groups (rows) and racks in the rooms, then each device's mount: the devices of a room
 * fill its racks in turn, `devicesPerRack` to a rack, bottom up. Returns one mount per device
 * (`deviceRooms[i]` is the room index of device i), or null when the service has no racks.
 */
export async function seedRacks(ctx: SeedContext, deviceRooms: number[]): Promise<(Mount | null)[] | null> {
  if (missing(ctx, ['dcim/racks', 'dcim/rack-groups']).length) return null;
  const rng = ctx.rng('racks');
  const perRoom = ctx.rooms.map(() => 0);
  for (const r of deviceRooms) perRoom[r] += 1;
  const racksPerRoom = planRacks(ctx, perRoom, rng);
  const rows = ctx.rooms.flatMap((room, r) => Array.from({ length: Math.ceil(racksPerRoom[r] / RACKS_PER_ROW) }, (_, k) => ({ r, k, room })));
  const groups = await createAll<Ref>(ctx, 'rack groups', '/api/dcim/rack-groups/', rows.map(({ k, room }) => ({
    name: `Row ${k + 1}`, location: room.id, description: `Row ${k + 1} of room ${room.label}`,
  })));
  const groupOf = new Map(rows.map((row, i) => [`${row.r}/${row.k}`, groups[i].id]));
  const planned = ctx.rooms.flatMap((room, r) => Array.from({ length: racksPerRoom[r] }, (_, k) => ({ r, k, room })));
  const racks = await createAll<Ref>(ctx, 'racks', '/api/dcim/racks/', planned.map(({ r, k, room }, i) => rackBody(ctx, rng, {
    name: `${room.label}-R${String(k + 1).padStart(2, '0')}`, room: room.id, group: groupOf.get(`${r}/${Math.floor(k / RACKS_PER_ROW)}`)!, facility: `${room.site}-${String(i + 1).padStart(5, '0')}`, i,
  })));
  const firstRack = new Map<number, number>();
  planned.forEach(({ r }, i) => { if (!firstRack.has(r)) firstRack.set(r, i); });
  const filled = ctx.rooms.map(() => 0);
  return deviceRooms.map((r) => {
    const slot = filled[r]++;
    const rack = racks[firstRack.get(r)! + Math.floor(slot / ctx.scale.devicesPerRack)];
    return { rack: rack.id, position: 1 + (slot % ctx.scale.devicesPerRack) * SLOT_UNITS, face: 'front' };
  });
}

function rackBody(ctx: SeedContext, rng: Rng, o: { name: string; room: string; group: string; facility: string; i: number }): Record<string, unknown> {
  const sized = rng.chance(0.5);
  return {
    name: o.name, location: o.room, rack_group: o.group, facility_id: o.facility, status: ctx.status('dcim.rack', rng),
    tenant: rng.chance(0.3) ? rng.pick(ctx.tenants).id : null, serial: rng.chance(0.5) ? `RK${rng.int(100_000, 999_999)}` : '',
    asset_tag: rng.chance(0.5) ? `AT-R${String(o.i + 1).padStart(6, '0')}` : null, type: rng.pick(['4-post-cabinet', '4-post-frame', '2-post-frame']),
    width: 19, u_height: rng.pick([42, 42, 42, 45, 48]), desc_units: false,
    outer_width: sized ? 600 : null, outer_depth: sized ? rng.pick([1000, 1200]) : null, outer_unit: sized ? 'mm' : '',
    comments: rng.chance(0.1) ? 'Power: 2 x 32 A feeds.' : '', tags: someTags(ctx, rng, 2), custom_fields: someCustomFields(ctx, 'dcim.rack', rng),
  };
}
