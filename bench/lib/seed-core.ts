import { CITIES, COLORS, COMPANY_A, COMPANY_B, CONTINENTS, COUNTRIES, SECTORS, STREETS, TAG_WORDS, TIME_ZONES, numbered } from './names.js';
import { createAll, someCustomFields, someTags } from './seed-context.js';
import { presentTypes, taggableTypes } from './catalog.js';
import type { ApiResponse } from './client.js';
import type { Rng } from './prng.js';
import type { Scale } from './scales.js';
import type { Ref, SeedContext } from './seed-context.js';

type LocationLevel = 'Region' | 'Site' | 'Building' | 'Room';

/** One location to create; `parent` indexes an earlier entry of the plan. */
export type PlannedLocation = { level: LocationLevel; name: string; parent: number | null; site: string };

/** The location tree, generated before anything is created so its size is known up front. */
export function planLocations(scale: Scale, rng: Rng): PlannedLocation[] {
  const plan: PlannedLocation[] = [];
  const add = (entry: PlannedLocation) => plan.push(entry) - 1;
  const leaves: number[] = [];
  for (let r = 0; r < scale.regions; r += 1) {
    const top = add({ level: 'Region', name: numbered(CONTINENTS, r), parent: null, site: '' });
    for (let s = 0; s < scale.subRegions; s += 1) leaves.push(add({ level: 'Region', name: numbered(COUNTRIES, r * scale.subRegions + s), parent: top, site: '' }));
    if (scale.subRegions === 0) leaves.push(top);
  }
  let siteNo = 0;
  const sites: number[] = [];
  for (const region of leaves) {
    for (let s = rng.int(...scale.sitesPerRegion); s > 0; s -= 1, siteNo += 1) {
      const code = `${CITIES[siteNo % CITIES.length].slice(0, 3).toUpperCase()}${String(Math.floor(siteNo / CITIES.length) + 1).padStart(2, '0')}`;
      sites.push(add({ level: 'Site', name: code, parent: region, site: code }));
    }
  }
  const buildings: number[] = [];
  for (const site of sites) {
    const n = rng.int(...scale.buildingsPerSite);
    for (let b = 0; b < n; b += 1) buildings.push(add({ level: 'Building', name: `Building ${String.fromCharCode(65 + b)}`, parent: site, site: plan[site].site }));
  }
  for (const building of buildings) {
    const n = rng.int(...scale.roomsPerBuilding);
    for (let m = 0; m < n; m += 1) add({ level: 'Room', name: `Room ${100 * (m + 1) + rng.int(1, 20)}`, parent: building, site: plan[building].site });
  }
  return plan;
}

/** Custom fields (when the service has them) on locations, tenants, devices, racks, circuits and virtual machines. */
export async function seedCustomFields(ctx: SeedContext): Promise<void> {
  if (!ctx.catalog.has('extras', 'custom-fields')) return;
  const types = presentTypes(ctx.catalog, ['dcim.location', 'tenancy.tenant', 'dcim.device', 'dcim.rack', 'circuits.circuit', 'virtualization.virtualmachine']);
  const fields = [
    { key: 'bench_owner', label: 'Owner', type: 'text', content_types: types },
    { key: 'bench_cost_center', label: 'Cost center', type: 'integer', content_types: types },
  ];
  try {
    await createAll(ctx, 'custom fields', '/api/extras/custom-fields/', fields);
    for (const t of types) ctx.customFields.set(t, fields.map((f) => f.key));
  } catch (err) {
    ctx.warn(`custom fields skipped: ${(err as Error).message}`);
  }
}

export async function seedTags(ctx: SeedContext): Promise<void> {
  const rng = ctx.rng('tags');
  const contentTypes = taggableTypes(ctx.catalog);
  const items = Array.from({ length: ctx.scale.tags }, (_, i) => ({
    name: numbered(TAG_WORDS, i), color: rng.pick(COLORS), description: rng.chance(0.5) ? `Objects marked ${numbered(TAG_WORDS, i)}` : '', content_types: contentTypes,
  }));
  ctx.tags = (await createAll<Ref>(ctx, 'tags', '/api/extras/tags/', items)).map((t) => ({ id: t.id, name: t.name }));
}

export async function seedTenancy(ctx: SeedContext): Promise<void> {
  const rng = ctx.rng('tenancy');
  const roots = Math.max(1, Math.ceil(ctx.scale.tenantGroups / 3));
  const rootGroups = await createAll<Ref>(ctx, 'tenant groups', '/api/tenancy/tenant-groups/',
    Array.from({ length: roots }, (_, i) => ({ name: numbered(SECTORS, i), description: `${numbered(SECTORS, i)} customers` })));
  const children = await createAll<Ref>(ctx, 'tenant groups', '/api/tenancy/tenant-groups/',
    Array.from({ length: ctx.scale.tenantGroups - roots }, (_, i) => ({ name: `${rootGroups[i % roots].name} tier ${Math.floor(i / roots) + 1}`, parent: rootGroups[i % roots].id })));
  const groups = [...rootGroups, ...children];
  const tenants = Array.from({ length: ctx.scale.tenants }, (_, i) => ({
    name: `${COMPANY_A[i % COMPANY_A.length]} ${COMPANY_B[Math.floor(i / COMPANY_A.length) % COMPANY_B.length]}${i >= COMPANY_A.length * COMPANY_B.length ? ` ${Math.floor(i / (COMPANY_A.length * COMPANY_B.length)) + 1}` : ''}`,
    tenant_group: rng.chance(0.8) ? rng.pick(groups).id : null,
    description: rng.chance(0.5) ? `Customer since ${rng.int(2005, 2024)}` : '',
    comments: rng.chance(0.2) ? 'Escalations go through the account manager.' : '',
    tags: someTags(ctx, rng),
    custom_fields: someCustomFields(ctx, 'tenancy.tenant', rng),
  }));
  ctx.tenants = (await createAll<Ref>(ctx, 'tenants', '/api/tenancy/tenants/', tenants)).map((t) => ({ id: t.id, name: t.name }));
}

/** Region (nestable) > Site > Building > Room; every type may hold the inventory models that exist. */
async function seedLocationTypes(ctx: SeedContext): Promise<Record<LocationLevel, string>> {
  const holds = presentTypes(ctx.catalog, ['dcim.device', 'dcim.rack', 'dcim.rackgroup', 'ipam.prefix', 'ipam.vlan', 'ipam.vlangroup', 'virtualization.cluster', 'circuits.circuittermination']);
  const ids = {} as Record<LocationLevel, string>;
  let parent: string | null = null;
  for (const level of ['Region', 'Site', 'Building', 'Room'] as LocationLevel[]) {
    const body: Record<string, unknown> = { name: level, nestable: level === 'Region', parent, description: `${level} level`, content_types: level === 'Region' ? [] : holds };
    let res: ApiResponse = await ctx.client.request('POST', '/api/dcim/location-types/', body);
    if (res.status === 400 && holds.length) {
      ctx.warn(`location type ${level}: content types refused (${res.raw.slice(0, 200)}); creating without them`);
      res = await ctx.client.request('POST', '/api/dcim/location-types/', { ...body, content_types: [] });
    }
    if (res.status !== 201) throw new Error(`POST location type ${level} -> ${res.status}: ${res.raw}`);
    ids[level] = res.body.id;
    parent = res.body.id;
    ctx.progress.tick('location types', 1);
  }
  ctx.created['location types'] = 4;
  return ids;
}

function locationBody(ctx: SeedContext, entry: PlannedLocation, ids: { type: string; parent: string | null }, rng: Rng): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: entry.name, location_type: ids.type, parent: ids.parent, status: ctx.status('dcim.location', rng),
    tenant: entry.level !== 'Region' && rng.chance(0.7) ? rng.pick(ctx.tenants).id : null,
    description: rng.chance(0.6) ? `${entry.level} ${entry.name} in ${rng.pick(CITIES)}` : '',
    tags: someTags(ctx, rng),
  };
  if (entry.level === 'Site') {
    const city = rng.pick(CITIES);
    Object.assign(body, {
      facility: `${city} DC${rng.int(1, 9)}`, asn: 64512 + rng.int(0, 1000), time_zone: rng.pick(TIME_ZONES),
      physical_address: `${rng.int(1, 400)} ${rng.pick(STREETS)}, ${city}`, shipping_address: rng.chance(0.3) ? `Dock ${rng.int(1, 9)}, ${city}` : '',
      latitude: (rng.next() * 140 - 70).toFixed(6), longitude: (rng.next() * 340 - 170).toFixed(6),
      contact_name: rng.chance(0.5) ? `${rng.pick(['Ana', 'Ben', 'Chen', 'Dara', 'Eli', 'Femi'])} ${rng.pick(['Smith', 'Garcia', 'Ito', 'Okafor', 'Novak'])}` : '',
      contact_email: rng.chance(0.5) ? `noc-${entry.name.toLowerCase()}@example.com` : '',
    });
  }
  const cf = someCustomFields(ctx, 'dcim.location', rng);
  if (cf) body.custom_fields = cf;
  return body;
}

/** Location types and the location tree, one bulk request per level (batches of 500). */
export async function seedLocations(ctx: SeedContext, plan: PlannedLocation[]): Promise<void> {
  const types = await seedLocationTypes(ctx);
  const rng = ctx.rng('locations');
  const ids: string[] = new Array(plan.length);
  const levels = new Map<number, number[]>();
  const depthOf = (i: number): number => (plan[i].parent === null ? 0 : depthOf(plan[i].parent!) + 1);
  plan.forEach((_, i) => levels.set(depthOf(i), [...(levels.get(depthOf(i)) ?? []), i]));
  for (const depth of [...levels.keys()].sort((a, b) => a - b)) {
    const members = levels.get(depth)!;
    const bodies = members.map((i) => locationBody(ctx, plan[i], { type: types[plan[i].level], parent: plan[i].parent === null ? null : ids[plan[i].parent!] }, rng));
    const made = await createAll<Ref>(ctx, 'locations', '/api/dcim/locations/', bodies);
    made.forEach((obj, k) => { ids[members[k]] = obj.id; });
  }
  const keys = siteKeys(plan);
  plan.forEach((entry, i) => {
    if (entry.level === 'Site') ctx.sites.push({ id: ids[i], name: keys.get(i)! });
    if (entry.level !== 'Room') return;
    const building = plan[entry.parent!];
    ctx.rooms.push({ id: ids[i], site: keys.get(building.parent!)!, label: `${building.name.replace('Building ', '')}-${entry.name.replace('Room ', '')}` });
  });
}

/** A unique key per site (by plan index): its code, with "-2", "-3"... when an earlier site has the same code (Dubai and Dublin are both DUB). */
function siteKeys(plan: PlannedLocation[]): Map<number, string> {
  const seen = new Map<string, number>();
  const keys = new Map<number, string>();
  plan.forEach((entry, i) => {
    if (entry.level !== 'Site') return;
    const n = (seen.get(entry.name) ?? 0) + 1;
    seen.set(entry.name, n);
    keys.set(i, n > 1 ? `${entry.name}-${n}` : entry.name);
  });
  return keys;
}
