/**
 * Deterministic dump of bulk writes and what they log (responses, object-changes API, stored
 * change rows and parts, outbox rows), uuids renamed by first appearance and times masked, for
 * an old/new comparison: `node --import tsx bench/exact-changes.ts > out.txt` (DATABASE_URL for PostgreSQL).
 */
import { sql } from 'kysely';
import { makeApp, create } from '../test/helpers/app.js';

const t = await makeApp();
const fixed = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const out: string[] = [];
const uuids = new Map<string, string>();
const mask = (s: string) => s
  .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (u) => { if (!uuids.has(u)) uuids.set(u, `U${uuids.size}`); return uuids.get(u)!; })
  .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?/g, 'TIME')
  .replace(/"request_id":"[^"]*"/g, '"request_id":"R"')
  .replace(/(natural_slug\\?":\\?"[^"\\]*_)[0-9a-f]{4}/g, '$1SLUG');
const log = (label: string, res: { status: number; raw: string }) => out.push(`${label} ${res.status} ${mask(res.raw)}`);

const [lt] = await create(t, '/api/dcim/location-types/', [{ name: 'Building', nestable: true, content_types: ['dcim.location'] }]);
const [room] = await create(t, '/api/dcim/location-types/', [{ name: 'Room', parent: lt.id, content_types: ['dcim.location'] }]);
const status = (await t.call('GET', '/api/extras/statuses/?name=Active')).body.results[0].id;
const tags = await create(t, '/api/extras/tags/', [{ id: fixed(1), name: 'T1 →', content_types: ['dcim.location'] }, { id: fixed(2), name: 'T2', content_types: ['dcim.location'] }]);
const [b1, b2] = await create(t, '/api/dcim/locations/', [{ id: fixed(3), name: 'B1 é', location_type: lt.id, status }, { id: fixed(4), name: 'B2', location_type: lt.id, status }]);
const items = Array.from({ length: 300 }, (_, i) => ({ id: fixed(1000 + i), name: `R${i} ${i % 7 === 0 ? '→' : ''}`, location_type: room.id, parent: i % 2 ? b1.id : b2.id, status, tags: i % 3 ? [tags[0].id, tags[1].id] : [tags[1].id], description: `d${i}` }));
const made = await t.call('POST', '/api/dcim/locations/', items);
log('create', made);
const ids = made.body.map((o: any) => o.id);
log('failing create', await t.call('POST', '/api/dcim/locations/', [{ name: 'X1', location_type: room.id, parent: b1.id, status }, { name: 'R1 ', location_type: room.id, parent: b1.id, status }]));
log('patch', await t.call('PATCH', '/api/dcim/locations/', ids.slice(0, 120).map((id: string, i: number) => ({ id, description: `p${i}`, tags: [tags[0].id] }))));
log('detail patch', await t.call('PATCH', `/api/dcim/locations/${ids[3]}/`, { description: 'one →', tags: [tags[1].id] }));
log('detail put', await t.call('PUT', `/api/dcim/locations/${ids[4]}/`, { name: 'R4 put', location_type: room.id, parent: b2.id, status }));
log('single post', await t.call('POST', '/api/dcim/locations/', { id: fixed(2000), name: 'S1', location_type: room.id, parent: b1.id, status, tags: [tags[0].id] }));
log('tenant post', await t.call('POST', '/api/tenancy/tenants/', { id: fixed(2001), name: 'Tenant one' }));
log('tenant patch', await t.call('PATCH', `/api/tenancy/tenants/${fixed(2001)}/`, { description: 'd' }));
log('delete', await t.call('DELETE', '/api/dcim/locations/', ids.slice(200).map((id: string) => ({ id }))));
log('changes', await t.call('GET', '/api/extras/object-changes/?limit=1000'));
await new Promise((r) => setTimeout(r, 1500));
const db = (t.app as any).services.dialect.db;
const rows = await sql<any>`SELECT action, object_repr, changed_object_id, CAST(object_data AS TEXT) AS d, CAST(object_data_v2 AS TEXT) AS v2, CAST(object_data_v2_parts AS TEXT) AS p FROM extras_objectchange`.execute(db);
const sorted = rows.rows.map((r: any) => JSON.stringify(r)).sort();
for (const r of sorted) out.push(`row ${mask(r)}`);
const parts = await sql<any>`SELECT id, CAST(data AS TEXT) AS d FROM extras_objectchange_part`.execute(db);
for (const r of parts.rows.map((r: any) => mask(`${r.d}`)).sort()) out.push(`part ${r}`);
const outbox = await sql<any>`SELECT o.id, o.seq, c.action, c.object_repr FROM inventory_outbox o JOIN extras_objectchange c ON c.id = o.change_id ORDER BY o.id`.execute(db);
for (const r of outbox.rows) out.push(`outbox ${r.id} ${r.seq} ${r.action} ${r.object_repr}`);
console.log(out.join('\n'));
await t.close();
