import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';
import { pageTuning, readPage } from '../../src/db/query/page.js';
import { buildOrder } from '../../src/db/query/sort.js';
import { TRUE } from '../../src/db/query/sql-helpers.js';

/** `dialect.readRows` (issue 22): the store's reads by statement text, run on SQLite without Kysely's executor when the connection is free. */
describe('dialect.readRows', () => {
  let t: TestApp;
  const count = async () => {
    const { dialect } = t.app.services;
    const text = dialect.name === 'postgres' ? 'SELECT count(*)::int AS n FROM read_rows_probe WHERE a >= $1' : 'SELECT count(*) AS n FROM read_rows_probe WHERE a >= ?';
    return Number((await dialect.readRows(dialect.db, text, [0]))[0].n);
  };
  before(async () => {
    t = await makeApp();
    await sql`CREATE TABLE read_rows_probe (a integer)`.execute(t.app.services.dialect.db);
    await sql`INSERT INTO read_rows_probe VALUES (1), (2)`.execute(t.app.services.dialect.db);
  });
  after(() => t.close());

  it('should read the rows and count the statement', async () => {
    const before = t.app.services.dialect.queryCount();
    assert.equal(await count(), 2);
    assert.equal(t.app.services.dialect.queryCount() - before, 1);
  });

  it('should not read another request\'s uncommitted rows while its transaction holds the connection', async () => {
    const { db } = t.app.services.dialect;
    let inserted!: () => void;
    const ready = new Promise<void>((resolve) => { inserted = resolve; });
    let finish!: () => void;
    const done = new Promise<void>((resolve) => { finish = resolve; });
    const write = db.transaction().execute(async (trx) => {
      await sql`INSERT INTO read_rows_probe VALUES (3)`.execute(trx);
      inserted();
      await done;
      throw new Error('rolled back');
    });
    await ready;
    // Read from outside the transaction while it is open; it is then rolled back.
    const read = count();
    finish();
    await assert.rejects(write, /rolled back/);
    assert.equal(await read, 2);
  });
});

/** The store's reads by id decode each row from the driver's arrays on SQLite: the same rows as the object path. */
describe('Store.byIds', () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());

  it('should decode rows as the object path does, a kind reading another column included (IP addresses)', async () => {
    const call = async (method: string, url: string, body: unknown) => {
      const res = await t.call(method, url, body);
      assert.equal(res.status, 201, res.raw);
      return res.body;
    };
    await call('POST', '/api/ipam/prefixes/', { prefix: '2001:db8::/64', status: 'Active', type: 'network', namespace: 'Global' });
    await call('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/24', status: 'Active', type: 'network', namespace: 'Global' });
    const made = [await call('POST', '/api/ipam/ip-addresses/', { address: '10.0.0.1/24', status: 'Active', namespace: 'Global' }), await call('POST', '/api/ipam/ip-addresses/', { address: '2001:db8::1/64', status: 'Active', namespace: 'Global' })];
    const { services } = t.app;
    for (const id of ['ipam.ipaddress', 'ipam.prefix', 'extras.status']) {
      const model = services.registry.get(id);
      const viaObjects = (await services.dialect.db.selectFrom(model.table).selectAll().execute()).map((r) => services.store.decode(model, r));
      const viaIds = await services.store.byIds(services.dialect.db, model, viaObjects.map((r) => r.id));
      const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a.id).localeCompare(String(b.id)));
      assert.deepEqual(byId(viaIds), byId(viaObjects), id);
      assert.deepEqual(viaIds.map((r) => Object.keys(r)), viaIds.map(() => Object.keys(viaObjects[0])), `${id}: keys in the model's order`);
    }
    assert.deepEqual(made.map((ip) => ip.address).sort(), ['10.0.0.1/24', '2001:db8::1/64']);
  });

  it('should read list pages decoded from arrays as the driver\'s rows decoded (every way a page is read, on both databases)', async () => {
    const { services } = t.app;
    const exec = services.dialect.db;
    for (const id of ['ipam.ipaddress', 'ipam.prefix', 'extras.status']) {
      const model = services.registry.get(id);
      const read = services.store.pageReader(exec, model);
      assert.ok(read);
      const terms = buildOrder(services.registry, model, undefined);
      const some = sql<boolean>`${sql.ref(`${model.table}.id`)} IS NOT NULL`;
      for (const walk of ['auto', 'always', 'never'] as const) {
        pageTuning.walk = walk;
        for (const [where, limit, offset] of [[TRUE, 50, 0], [TRUE, 1, 1], [TRUE, null, 0], [() => some, 2, 0]] as const) {
          const q = { exec, model, where, terms, limit, offset, shape: `${id}|` };
          const viaObjects = (await readPage(q)).rows.map((r) => services.store.decode(model, r));
          const viaArrays: Record<string, unknown>[] = (await readPage({ ...q, read })).rows;
          assert.ok(viaObjects.length > 0, id);
          assert.deepEqual(viaArrays, viaObjects, `${id} ${walk} ${limit} ${offset}`);
          assert.deepEqual(viaArrays.map((r) => Object.keys(r)), viaObjects.map((r) => Object.keys(r)), `${id}: keys in the same order`);
        }
      }
      pageTuning.walk = 'auto';
    }
  });
});
