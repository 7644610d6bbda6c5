/**
 * Ad-hoc: statements and wall time of bulk cable writes (create, status PATCH, DELETE) of 10,
 * 100 and 1000 cables, between interfaces (`iface`) and as a mix with front/rear ports and
 * circuit terminations (`mix`: units of five cables, interface - front port | rear port =
 * rear port | front port - interface, and interface - circuit A, circuit Z - interface), on a
 * fresh in-memory database per size (or DATABASE_URL). CPU time is this process's only (on
 * PostgreSQL the server's work is not in it).
 *
 *   node --import tsx bench/cable-writes.ts [iface|mix] [sizes...]
 */
import { create, makeApp } from '../test/helpers/app.js';
import type { TestApp } from '../test/helpers/app.js';

type Cable = Record<string, unknown>;

async function timed(t: TestApp, method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown, status: number): Promise<{ n: number; ms: number; cpu: number; body: any }> {
  const before = t.app.services.dialect.queryCount();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const res = await t.call(method, path, body);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpuStart);
  const cpu = (used.user + used.system) / 1000;
  if (res.status !== status) throw new Error(`${method} ${path} -> ${res.status}: ${res.raw.slice(0, 300)}`);
  return { n: t.app.services.dialect.queryCount() - before, ms, cpu, body: res.body };
}

/** Creates `bodies` a thousand at a time. */
async function bulk(t: TestApp, path: string, bodies: Record<string, unknown>[]): Promise<any[]> {
  const out: any[] = [];
  for (let i = 0; i < bodies.length; i += 1000) out.push(...(await create(t, path, bodies.slice(i, i + 1000))));
  return out;
}

async function base(t: TestApp) {
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device', 'circuits.circuittermination'] });
  const location = await create(t, '/api/dcim/locations/', { name: 'dc1', location_type: type.id, status: 'Active' });
  const manufacturer = await create(t, '/api/dcim/manufacturers/', { name: 'acme' });
  const deviceType = await create(t, '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'box' });
  const role = await create(t, '/api/extras/roles/', { name: 'gear', content_types: ['dcim.device'] });
  const devices = await create(t, '/api/dcim/devices/', ['a', 'b', 'p1', 'p2'].map((name) => ({ name, device_type: deviceType.id, role: role.id, location: location.id, status: 'Active' })));
  return { location, devices };
}

const link = (a: [string, any], b: [string, any], status = 'Connected'): Cable => ({
  termination_a_type: a[0], termination_a_id: a[1].id, termination_b_type: b[0], termination_b_id: b[1].id, status,
});

async function ifaceCables(t: TestApp, n: number): Promise<Cable[]> {
  const { devices: [a, b] } = await base(t);
  const ifaces = (d: any) => bulk(t, '/api/dcim/interfaces/', Array.from({ length: n }, (_, i) => ({ device: d.id, name: `e${i}`, type: '1000base-t', status: 'Active' })));
  const [xs, ys] = [await ifaces(a), await ifaces(b)];
  return xs.map((x, i) => link(['dcim.interface', x], ['dcim.interface', ys[i]]));
}

async function mixCables(t: TestApp, n: number): Promise<Cable[]> {
  const units = Math.ceil(n / 5);
  const { location, devices: [a, b, p1, p2] } = await base(t);
  const range = (f: (i: number) => Record<string, unknown>) => Array.from({ length: units }, (_, i) => f(i));
  const ifaces = (d: any, prefix: string) => bulk(t, '/api/dcim/interfaces/', range((i) => ({ device: d.id, name: `${prefix}${i}`, type: '1000base-t', status: 'Active' })));
  const [xa, xb, xc, xd] = [await ifaces(a, 'x'), await ifaces(b, 'x'), await ifaces(a, 'c'), await ifaces(b, 'c')];
  const rears = (d: any) => bulk(t, '/api/dcim/rear-ports/', range((i) => ({ device: d.id, name: `r${i}`, type: '8p8c', positions: 1 })));
  const [r1, r2] = [await rears(p1), await rears(p2)];
  const fronts = (d: any, rs: any[]) => bulk(t, '/api/dcim/front-ports/', range((i) => ({ device: d.id, name: `f${i}`, type: '8p8c', rear_port: rs[i].id, rear_port_position: 1 })));
  const [f1, f2] = [await fronts(p1, r1), await fronts(p2, r2)];
  const provider = await create(t, '/api/circuits/providers/', { name: 'isp' });
  const ctype = await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
  const circuits = await bulk(t, '/api/circuits/circuits/', range((i) => ({ cid: `c${i}`, provider: provider.id, circuit_type: ctype.id, status: 'Active' })));
  const terms = (side: string) => bulk(t, '/api/circuits/circuit-terminations/', range((i) => ({ circuit: circuits[i].id, term_side: side, location: location.id })));
  const [ta, tz] = [await terms('A'), await terms('Z')];
  const out: Cable[] = [];
  for (let i = 0; i < units; i += 1) {
    out.push(link(['dcim.interface', xa[i]], ['dcim.frontport', f1[i]]), link(['dcim.rearport', r1[i]], ['dcim.rearport', r2[i]]), link(['dcim.frontport', f2[i]], ['dcim.interface', xb[i]]));
    out.push(link(['dcim.interface', xc[i]], ['circuits.circuittermination', ta[i]]), link(['circuits.circuittermination', tz[i]], ['dcim.interface', xd[i]]));
  }
  return out.slice(0, n);
}

async function measure(kind: string, n: number): Promise<string> {
  const t = await makeApp({ maxPageSize: 0 });
  try {
    const bodies = kind === 'mix' ? await mixCables(t, n) : await ifaceCables(t, n);
    const made = await timed(t, 'POST', '/api/dcim/cables/', bodies, 201);
    const patched = await timed(t, 'PATCH', '/api/dcim/cables/', made.body.map((c: any) => ({ id: c.id, status: 'Planned' })), 200);
    const gone = await timed(t, 'DELETE', '/api/dcim/cables/', made.body.map((c: any) => ({ id: c.id })), 204);
    const cell = (r: { n: number; ms: number; cpu: number }) => `${String(r.n).padStart(6)} ${(r.ms / 1000).toFixed(2).padStart(6)}s ${(r.cpu / 1000).toFixed(2).padStart(5)}s`;
    return `${kind.padEnd(5)} ${String(n).padStart(5)}   create ${cell(made)}   patch ${cell(patched)}   delete ${cell(gone)}`;
  } finally {
    await t.close();
  }
}

const [kindArg, ...sizeArgs] = process.argv.slice(2);
const kinds = kindArg ? [kindArg] : ['iface', 'mix'];
const sizes = sizeArgs.length > 0 ? sizeArgs.map(Number) : [10, 100, 1000];
console.log(`database: ${process.env.DATABASE_URL?.startsWith('postgres') ? 'postgresql' : 'sqlite'}   (statements, wall seconds, this process's CPU seconds)`);
for (const kind of kinds) for (const n of sizes) console.log(await measure(kind, n));
