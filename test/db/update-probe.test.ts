import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { CompiledQuery } from 'kysely';
import type { Exec } from '../../src/db/store.js';
import type { TestApp } from '../helpers/app.js';

/**
 * A bulk update joins its rows as a VALUES list (`UPDATE t ... FROM (VALUES ...) AS v WHERE
 * t.id = v.column1`). SQLite, without statistics, scanned the whole table against an automatic
 * index on the list once it had a few hundred rows: a 200-cable POST's two updates of its 400
 * interfaces among 95 000 took 224 and 118 ms instead of about 30. Each row must probe the id index.
 */

let t: TestApp;
let rooms: string[];

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.location'] });
  const made = await create(t, '/api/dcim/locations/', Array.from({ length: 40 }, (_, i) => ({ name: `site ${i}`, location_type: 'Site', status: 'Active' })));
  rooms = made.map((l: { id: string }) => l.id);
});
after(() => t.close());

describe('bulk update through a VALUES list', () => {
  it('should probe the id index for each row and change only the rows named', async () => {
    const { services } = t.app;
    const db = services.dialect.db;
    const queries: CompiledQuery[] = [];
    const exec = new Proxy(db, {
      get(target, key) {
        if (key === 'executeQuery') return (q: CompiledQuery) => { queries.push(q); return target.executeQuery(q); };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Exec;
    // As many rows as a bulk write updates at once (most of them absent): with a few, any plan probes.
    const ids = [...rooms.filter((_, i) => i % 2 === 0), ...Array.from({ length: 400 }, () => crypto.randomUUID())];
    await services.store.updateMany(exec, services.registry.get('dcim.location'), ids.map((id, i) => ({ id, values: { description: `u${i}` } })));
    const update = queries.find((q) => /^update/i.test(q.sql));
    assert.ok(update);
    if (services.dialect.name === 'sqlite') {
      const plan = await db.executeQuery<Record<string, unknown>>({ ...update, sql: `EXPLAIN QUERY PLAN ${update.sql}` } as CompiledQuery);
      const text = plan.rows.map((r) => String(r.detail)).join('\n');
      assert.match(text, /SEARCH dcim_location USING (COVERING )?INDEX/, text);
      assert.doesNotMatch(text, /SCAN dcim_location\b/, text);
    }
    const after = (await t.call('GET', '/api/dcim/locations/?limit=100')).body.results as { id: string; description: string }[];
    const described = after.filter((l) => l.description !== '').map((l) => l.id).sort();
    assert.deepEqual(described, rooms.filter((_, i) => i % 2 === 0).sort());
  });
});
