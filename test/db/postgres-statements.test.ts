import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { DB_URL, makeApp } from '../helpers/app.js';
import type { Kysely } from 'kysely';
import type { TestApp } from '../helpers/app.js';

const onPostgres = DB_URL.startsWith('postgres');

/** How many statements with this text the connection running the query holds prepared. */
async function preparedCount(exec: Kysely<any>, text: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = ${text}`.execute(exec);
  return rows[0].n;
}

describe('PostgreSQL named statements (issue 22)', { skip: onPostgres ? false : 'runs with DATABASE_URL=postgres://...' }, () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());

  it('should prepare a parameterized text once it runs again, and answer the same', async () => {
    const text = 'SELECT $1::int + 1 AS v /* repeated */';
    await t.app.services.dialect.db.transaction().execute(async (trx) => {
      const run = async (n: number) => (await trx.executeQuery<{ v: number }>(CompiledQuery.raw(text, [n]))).rows[0].v;
      assert.equal(await run(1), 2);
      assert.equal(await preparedCount(trx, text), 0);
      assert.equal(await run(2), 3);
      assert.equal(await run(3), 4);
      assert.equal(await preparedCount(trx, text), 1);
    });
  });

  it('should not prepare a text that ran once', async () => {
    const text = 'SELECT $1::int AS v /* once */';
    await t.app.services.dialect.db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw(text, [1]));
      assert.equal(await preparedCount(trx, text), 0);
    });
  });

  it('should read a table whose columns changed after its statement was prepared (a migration)', async () => {
    const db = t.app.services.dialect.db;
    await sql`CREATE TABLE stale_plan_probe (a integer)`.execute(db);
    await sql`INSERT INTO stale_plan_probe VALUES (1)`.execute(db);
    const read = async () => (await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw('SELECT * FROM stale_plan_probe WHERE a = $1', [1]))).rows;
    for (let i = 0; i < 3; i += 1) assert.deepEqual(await read(), [{ a: 1 }]);
    await sql`ALTER TABLE stale_plan_probe ADD COLUMN b integer DEFAULT 7`.execute(db);
    // Every pooled connection that prepared it answers with the new columns (the pool hands out its last idle one first).
    for (let i = 0; i < 3; i += 1) assert.deepEqual(await read(), [{ a: 1, b: 7 }]);
    await sql`DROP TABLE stale_plan_probe`.execute(db);
  });

  it('should send an IN-list of any length as one array parameter: one prepared text for every length', async () => {
    const db = t.app.services.dialect.db;
    await sql`CREATE TABLE in_list_probe (id integer PRIMARY KEY, name text)`.execute(db);
    await sql`INSERT INTO in_list_probe VALUES (1, 'a'), (2, 'b'), (3, null), (4, 'it''s, "q"')`.execute(db);
    const list = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');
    await db.transaction().execute(async (trx) => {
      const ids = async (where: string, values: unknown[]) => (await trx.executeQuery<{ id: number }>(CompiledQuery.raw(`SELECT "id" FROM "in_list_probe" WHERE ${where} ORDER BY "id"`, values))).rows.map((r) => r.id);
      for (let round = 0; round < 2; round += 1) {
        assert.deepEqual(await ids(`"in_list_probe"."id" in (${list(1)})`, [2]), [2]);
        assert.deepEqual(await ids(`"in_list_probe"."id" in (${list(3)})`, [1, 3, 9]), [1, 3]);
        assert.deepEqual(await ids(`"name" in (${list(2)})`, ['b', 'it\'s, "q"']), [2, 4]);
        // NOT IN answers as <> ALL does, a NULL in the list included (no row).
        assert.deepEqual(await ids(`"name" not in (${list(1)})`, ['a']), [2, 4]);
        assert.deepEqual(await ids(`"name" not in (${list(2)})`, ['a', null]), []);
      }
      const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%in_list_probe%' ORDER BY statement`.execute(trx);
      assert.deepEqual(rows.map((r) => r.statement), [
        'SELECT "id" FROM "in_list_probe" WHERE "in_list_probe"."id" = ANY($1) ORDER BY "id"',
        'SELECT "id" FROM "in_list_probe" WHERE "name" <> ALL($1) ORDER BY "id"',
        'SELECT "id" FROM "in_list_probe" WHERE "name" = ANY($1) ORDER BY "id"',
      ]);
    });
    await sql`DROP TABLE in_list_probe`.execute(db);
  });
});
