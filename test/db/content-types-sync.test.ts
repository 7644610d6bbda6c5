import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { buildTableSpecs, createTableSql } from '../../src/db/schema/build-schema.js';
import { migrate } from '../../src/db/schema/migrate.js';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

// Older builds made the content type table with a UUID key and never filled it. Migration 6
// rebuilds it with an integer key; every start then gives each registry model its row, and a
// row once given keeps its id.
let t: TestApp;
const TABLE = 'extras_contenttype';
const PATH = '/api/extras/content-types/';

/** Recreates the content type table as an older build made it: a UUID key, no rows. */
async function makeOldTable(): Promise<void> {
  const { dialect, registry } = t.app.services;
  const spec = buildTableSpecs(registry).find((s) => s.name === TABLE)!;
  const old = { ...spec, columns: spec.columns.filter((c) => c.name !== 'model_verbose_name').map((c) => ({ ...c, storage: c.name === 'id' ? 'uuid' as const : c.storage })) };
  await sql.raw(`DROP TABLE "${TABLE}"`).execute(dialect.db);
  await sql.raw(createTableSql(dialect, old)).execute(dialect.db);
  await dialect.db.deleteFrom('inventory_id_sequences').where('name', '=', TABLE).execute();
  await dialect.db.deleteFrom('inventory_migrations').where('id', '=', 6).execute();
}

/** A start of the service over the same database: migrations, then the content type sync. */
const restart = () => migrate(t.app.services.dialect, t.app.services.registry);

async function listed(): Promise<Map<string, { id: number; display: string }>> {
  const res = await t.call('GET', `${PATH}?limit=0`, undefined, { headers: { 'cache-control': 'no-cache' } });
  assert.equal(res.status, 200, res.raw);
  return new Map(res.body.results.map((r: { id: number; app_label: string; model: string; display: string }) => [`${r.app_label}.${r.model}`, { id: r.id, display: r.display }]));
}

before(async () => {
  t = await makeApp();
  await makeOldTable();
  await restart();
});
after(() => t.close());

describe('content type rows', () => {
  it('should give a database made by an older build one row per registry model, numbered in list order', async () => {
    const rows = await listed();
    assert.equal(rows.size, t.app.services.registry.models.length);
    assert.deepEqual([...rows.values()].map((r) => r.id), [...rows.keys()].map((_, i) => i + 1));
    assert.equal(rows.get('dcim.device')?.display, 'dcim | device');
  });

  it('should keep every id across restarts', async () => {
    const before = await listed();
    await restart();
    await restart();
    assert.deepEqual(await listed(), before);
  });

  it('should give a model without a row the next id and leave the others alone', async () => {
    const before = await listed();
    const db = t.app.services.dialect.db;
    await db.deleteFrom(TABLE).where('app_label', '=', 'dcim').where('model', '=', 'rack').execute();
    await restart();
    const after = await listed();
    assert.equal(after.get('dcim.rack')?.id, before.size + 1);
    for (const [key, row] of before) if (key !== 'dcim.rack') assert.deepEqual(after.get(key), row, key);
  });

  it('should keep the row of a model the registry no longer has, displayed by its bare name', async () => {
    const db = t.app.services.dialect.db;
    await db.insertInto(TABLE).values({ id: 5000, app_label: 'dcim', model: 'site', model_verbose_name: 'site' }).execute();
    await restart();
    const site = (await t.call('GET', `${PATH}?app_label=dcim&model=site`)).body.results[0];
    assert.equal(site.id, 5000);
    assert.equal(site.display, 'site');
    const unserved = (await t.call('GET', `${PATH}?has_serializer=false`)).body.results;
    assert.deepEqual(unserved.map((r: { id: number }) => r.id), [5000]);
  });

  it('should follow a model whose verbose name changed', async () => {
    const db = t.app.services.dialect.db;
    await db.updateTable(TABLE).set({ model_verbose_name: 'old name' }).where('app_label', '=', 'dcim').where('model', '=', 'device').execute();
    await restart();
    assert.equal((await listed()).get('dcim.device')?.display, 'dcim | device');
  });
});
