import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { insertRows } from '../../src/db/bulk-rows.js';
import type { Store } from '../../src/db/store.js';

/**
 * Where the dialect takes array parameters (PostgreSQL), narrow rows travel as one array per
 * column; texts full of quotes (JSON documents: change records) go as a VALUES list, as an
 * array literal escapes every quote and the server unescapes it (about twice the CPU).
 */

const exec = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const store = {
  dialect: { unnestRows: (types: string[]) => sql`unnest(${sql.join(types.map((type) => sql`CAST(${null} AS ${sql.raw(type)}[])`))})` },
  statementText: (_key: string, build: () => { sql: string }) => build().sql,
} as unknown as Store;

function insertOf(values: string[]) {
  return insertRows(store, exec, 't', ['a', 'b'], ['text', 'json'], { width: 2, count: values.length / 2, values });
}

describe('insertRows on a dialect with array parameters', () => {
  it('should send narrow rows as one array per column', () => {
    const query = insertOf(['x', '{}', 'y', '{}']);
    assert.match(query.sql, /unnest/);
    assert.deepEqual(query.parameters, [['x', 'y'], ['{}', '{}']]);
  });

  it('should send rows of quoted JSON texts as a VALUES list', () => {
    const doc = JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, `value ${i}`])));
    assert.ok(doc.length * 2 < 2000 * 2, 'under the plain width limit: only its quotes make it wide');
    const query = insertOf(['x', doc, 'y', doc]);
    assert.doesNotMatch(query.sql, /unnest/);
    assert.deepEqual(query.parameters, ['x', doc, 'y', doc]);
  });
});
