/**
 * Ad-hoc: a fixed sequence of cable writes (bulk creates, status and label PATCHes, deletes,
 * port moves, circuit terminations, device deletes, refused writes) with every response, every
 * trace/ and paths/ answer and at the end every table, written as JSON with ids made
 * deterministic and times masked: run it on two builds and diff the output to show that a
 * change keeps every result (rows, their order of insertion on SQLite, change records).
 *
 *   node --import tsx bench/cable-snapshot.ts > out.json
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { sql } from 'kysely';
import { create, makeApp } from '../test/helpers/app.js';
import type { TestApp } from '../test/helpers/app.js';

let counter = 0;
(crypto as { randomUUID: () => string }).randomUUID = () => `00000000-0000-4000-8000-${(counter += 1).toString(16).padStart(12, '0')}`;
syncBuiltinESMExports();

const TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?/g;
const log: unknown[] = [];

function mask(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null, (_k, v) => (v instanceof Date ? '<time>' : typeof v === 'string' ? v.replace(TIME, '<time>') : v)));
}

let t: TestApp;

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<any> {
  const res = await t.call(method, url, body);
  log.push({ method, url, status: res.status, body: mask(res.body) });
  return res.body;
}

const link = (a: [string, any], b: [string, any], extra: Record<string, unknown> = {}) => ({
  termination_a_type: a[0], termination_a_id: a[1].id, termination_b_type: b[0], termination_b_id: b[1].id, status: 'Connected', ...extra,
});

async function traces(objects: [string, string, any][]): Promise<void> {
  for (const [path, kind, o] of objects) await call('GET', `/api/dcim/${path}/${o.id}/${kind}/`);
}

async function dumpTables(): Promise<Record<string, unknown>> {
  const db = t.app.services.dialect.db;
  const sqlite = !process.env.DATABASE_URL?.startsWith('postgres');
  const names = sqlite
    ? (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`.execute(db)).rows.map((r) => r.name)
    : (await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`.execute(db)).rows.map((r) => r.name);
  const out: Record<string, unknown> = {};
  for (const name of names) {
    if (/token|user|migration|session/.test(name)) continue;
    const order = sqlite ? sql`rowid` : sql`1`;
    out[name] = mask((await sql`SELECT * FROM ${sql.table(name)} ORDER BY ${order}`.execute(db)).rows.map((r) => Object.fromEntries(Object.entries(r as object).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('hex') : v]))));
  }
  return out;
}

async function main(): Promise<void> {
  t = await makeApp({ maxPageSize: 0 });
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device', 'circuits.circuittermination', 'dcim.powerpanel'] });
  const location = await create(t, '/api/dcim/locations/', { name: 'dc1', location_type: type.id, status: 'Active' });
  const manufacturer = await create(t, '/api/dcim/manufacturers/', { name: 'acme' });
  const deviceType = await create(t, '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'box' });
  const role = await create(t, '/api/extras/roles/', { name: 'gear', content_types: ['dcim.device'] });
  const [a, b, c, p1, p2, gone] = await create(t, '/api/dcim/devices/', ['a', 'b', 'c', 'p1', 'p2', 'gone'].map((name) => ({ name, device_type: deviceType.id, role: role.id, location: location.id, status: 'Active' })));
  const ifaces = (d: any, n: number) => create(t, '/api/dcim/interfaces/', Array.from({ length: n }, (_, i) => ({ device: d.id, name: `e${i}`, type: '1000base-t', status: 'Active' })));
  const [ia, ib, ic, ig] = [await ifaces(a, 12), await ifaces(b, 12), await ifaces(c, 6), await ifaces(gone, 3)];
  const rears1 = await create(t, '/api/dcim/rear-ports/', [{ device: p1.id, name: 'r0', type: '8p8c', positions: 1 }, { device: p1.id, name: 'r1', type: '8p8c', positions: 4 }, { device: p1.id, name: 'r2', type: '8p8c', positions: 1 }]);
  const rears2 = await create(t, '/api/dcim/rear-ports/', [{ device: p2.id, name: 'r0', type: '8p8c', positions: 1 }, { device: p2.id, name: 'r1', type: '8p8c', positions: 4 }, { device: p2.id, name: 'r2', type: '8p8c', positions: 1 }, { device: p2.id, name: 'spare', type: '8p8c', positions: 1 }]);
  const fronts = (d: any, rears: any[]) => create(t, '/api/dcim/front-ports/', [
    { device: d.id, name: 'f0', type: '8p8c', rear_port: rears[0].id, rear_port_position: 1 },
    ...[1, 2, 3, 4].map((p) => ({ device: d.id, name: `f1-${p}`, type: '8p8c', rear_port: rears[1].id, rear_port_position: p })),
    { device: d.id, name: 'f2', type: '8p8c', rear_port: rears[2].id, rear_port_position: 1 },
  ]);
  const [f1, f2] = [await fronts(p1, rears1), await fronts(p2, rears2)];
  const provider = await create(t, '/api/circuits/providers/', { name: 'isp' });
  const ctype = await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
  const circuits = await create(t, '/api/circuits/circuits/', [0, 1, 2].map((i) => ({ cid: `c${i}`, provider: provider.id, circuit_type: ctype.id, status: 'Active' })));
  const termsA = await create(t, '/api/circuits/circuit-terminations/', circuits.map((ci: any) => ({ circuit: ci.id, term_side: 'A', location: location.id })));
  const termsZ = await create(t, '/api/circuits/circuit-terminations/', circuits.slice(0, 2).map((ci: any) => ({ circuit: ci.id, term_side: 'Z', location: location.id })));
  const consoles = await create(t, '/api/dcim/console-ports/', [0, 1].map((i) => ({ device: a.id, name: `con${i}` })));
  const servers = await create(t, '/api/dcim/console-server-ports/', [0, 1].map((i) => ({ device: b.id, name: `cs${i}` })));
  const pports = await create(t, '/api/dcim/power-ports/', [0, 1].map((i) => ({ device: a.id, name: `psu${i}` })));
  const outlets = await create(t, '/api/dcim/power-outlets/', [{ device: b.id, name: 'out0' }]);
  const panel = await create(t, '/api/dcim/power-panels/', { name: 'panel', location: location.id });
  const feed = await create(t, '/api/dcim/power-feeds/', { name: 'feed', power_panel: panel.id, status: 'Active' });
  const I = 'dcim.interface';
  const F = 'dcim.frontport';
  const R = 'dcim.rearport';
  const CT = 'circuits.circuittermination';

  // 1. One bulk create: whole chains in one request, paths over several new cables, multi-position panels, circuits, console, power.
  const first = await call('POST', '/api/dcim/cables/', [
    link([I, ia[0]], [F, f1[0]]), link([R, rears1[0]], [R, rears2[0]]), link([F, f2[0]], [I, ib[0]], { status: 'Planned' }),
    link([R, rears1[1]], [R, rears2[1]]), link([I, ia[1]], [F, f1[1]]), link([F, f2[1]], [I, ib[1]]), link([I, ia[2]], [F, f1[3]]), link([F, f2[4]], [I, ib[2]]),
    link([I, ia[3]], [CT, termsA[0]]), link([CT, termsZ[0]], [I, ib[3]], { label: 'wan' }),
    link([I, ia[4]], [CT, termsA[2]]),
    link([I, ia[5]], [I, ib[5]], { length: 3, length_unit: 'm' }), link([I, ic[0]], [I, ia[6]]),
    link(['dcim.consoleport', consoles[0]], ['dcim.consoleserverport', servers[0]]),
    link(['dcim.powerport', pports[0]], ['dcim.poweroutlet', outlets[0]]), link(['dcim.powerfeed', feed], ['dcim.powerport', pports[1]]),
    link([I, ig[0]], [I, ic[1]]), link([I, ig[1]], [I, ig[2]]),
  ]);
  const all = () => [...ia, ...ib, ...ic].map((o) => ['interfaces', 'trace', o] as [string, string, any]);
  const ports = () => [...f1, ...f2].map((o) => ['front-ports', 'paths', o] as [string, string, any]).concat([...rears1, ...rears2].map((o) => ['rear-ports', 'paths', o] as [string, string, any]));
  await traces([...all(), ...ports()]);
  // 2. Extending existing paths in the middle and at the ends, one request.
  await call('POST', '/api/dcim/cables/', [link([F, f2[3]], [I, ib[4]]), link([I, ia[7]], [F, f1[2]]), link([CT, termsZ[1]], [I, ib[6]]), link([I, ia[8]], [CT, termsA[1]])]);
  await traces([...all(), ...ports()]);
  // 3. Status and label PATCHes in bulk (only status changes retrace).
  await call('PATCH', '/api/dcim/cables/', [{ id: first[2].id, status: 'Connected' }, { id: first[1].id, status: 'Planned' }, { id: first[9].id, label: 'wan-2' }, { id: first[11].id, status: 'Decommissioning' }]);
  await call('GET', '/api/dcim/interface-connections/?limit=0');
  await call('GET', '/api/dcim/console-connections/?limit=0');
  await call('GET', '/api/dcim/power-connections/?limit=0');
  // 4. Refused writes: an end shared inside the batch, an end cabled already, mixed.
  await call('POST', '/api/dcim/cables/', [link([I, ia[9]], [I, ib[9]]), link([I, ib[9]], [I, ia[10]])]);
  await call('POST', '/api/dcim/cables/', [link([I, ia[9]], [I, ib[9]]), link([I, ib[10]], [I, ia[9]])]);
  await call('POST', '/api/dcim/cables/', [link([I, ia[9]], [I, ib[9]]), link([I, ia[0]], [I, ib[10]])]);
  await call('POST', '/api/dcim/cables/', link([I, ia[9]], [I, ia[9]]));
  // 5. Bulk delete of middle and end cables, a detail delete.
  await call('DELETE', '/api/dcim/cables/', [{ id: first[1].id }, { id: first[9].id }, { id: first[13].id }, { id: first[6].id }]);
  await call('DELETE', `/api/dcim/cables/${first[14].id}/`);
  await traces([...all(), ...ports()]);
  // 6. Port moves and rear port sizes.
  await call('POST', '/api/dcim/cables/', [link([R, rears1[2]], [R, rears2[2]]), link([I, ia[11]], [F, f1[5]]), link([F, f2[5]], [I, ib[11]])]);
  await call('PATCH', `/api/dcim/rear-ports/${rears2[2].id}/`, { positions: 2 });
  await call('PATCH', '/api/dcim/front-ports/', [{ id: f2[5].id, rear_port: rears2[3].id }, { id: f2[3].id, rear_port: rears2[2].id, rear_port_position: 2 }]);
  await call('PATCH', `/api/dcim/front-ports/${f2[2].id}/`, { rear_port_position: 3 });
  await traces([...all(), ...ports()]);
  // 7. A new circuit termination extends the paths ending at its circuit.
  await call('POST', '/api/circuits/circuit-terminations/', { circuit: circuits[2].id, term_side: 'Z', location: location.id });
  // 8. Deleting devices and components with cables.
  await call('DELETE', '/api/dcim/devices/', [{ id: gone.id }]);
  await call('DELETE', '/api/dcim/interfaces/', [{ id: ia[5].id }, { id: ic[0].id }]);
  await call('DELETE', `/api/dcim/devices/${p2.id}/`);
  await traces([...all(), ...ports().filter(([, , o]) => o.device.id !== p2.id)]);
  await call('GET', '/api/dcim/cables/?limit=0');
  await call('GET', '/api/extras/object-changes/?limit=0');
  console.log(JSON.stringify({ log, tables: await dumpTables() }, null, 1));
  await t.close();
}

await main();
