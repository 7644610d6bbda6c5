import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planInLists } from '../../src/db/dialects/sqlite-in-lists.js';
import { countedPrepares } from '../helpers/counted-prepares.js';

/** A connection behind the service's statement cache, its prepared texts recorded, with four rows (text ids, integers, reals, blobs). */
function probe() {
  const { db, prepared, close } = countedPrepares("CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, r REAL, b BLOB); INSERT INTO t VALUES ('a', 1, 1.5, x'01'), ('b', 2, 2.5, x'02'), ('c', 3, NULL, NULL), ('it''s', 4, 4.0, NULL)");
  const ids = (text: string, params: unknown[]) => (db.prepare(text).all(params) as { id: string }[]).map((r) => r.id);
  return { db, ids, prepared, close };
}

const list = (n: number) => Array(n).fill('?').join(', ');

describe('SQLite IN-lists as one JSON parameter', () => {
  it('should prepare one statement for every length of a list, with the same rows as the placeholders gave', () => {
    const { ids, prepared, close } = probe();
    assert.deepEqual(ids(`SELECT "id" FROM "t" WHERE "t"."id" in (${list(2)}) ORDER BY "id"`, ['a', 'c']), ['a', 'c']);
    assert.deepEqual(ids(`SELECT "id" FROM "t" WHERE "t"."id" in (${list(3)}) ORDER BY "id"`, ['c', "it's", 'zz']), ['c', "it's"]);
    assert.deepEqual(prepared, ['SELECT "id" FROM "t" WHERE "t"."id" in (SELECT value FROM json_each(?)) ORDER BY "id"']);
    close();
  });

  it('should compare with the column affinity as before: numbers as text, text as numbers, reals, NULL and NOT IN', () => {
    const { ids, close } = probe();
    assert.deepEqual(ids(`SELECT id FROM t WHERE n in (${list(3)}) ORDER BY id`, ['1', 3, 7]), ['a', 'c']);
    assert.deepEqual(ids(`SELECT id FROM t WHERE r in (${list(2)}) ORDER BY id`, [2.5, 4]), ['b', "it's"]);
    assert.deepEqual(ids(`SELECT id FROM t WHERE n not in (${list(2)}) ORDER BY id`, [1, 2]), ['c', "it's"]);
    assert.deepEqual(ids(`SELECT id FROM t WHERE n not in (${list(2)}) ORDER BY id`, [1, null]), [], 'NOT IN a list holding NULL is never true');
    close();
  });

  it('should leave the other placeholders in their places, skipping string literals and quoted names', () => {
    const plan = planInLists(`SELECT '?' AS "a?", id FROM t WHERE n > ? AND id in (?, ?) AND "x?y" = 'in (?, ?)' LIMIT ?`);
    assert.deepEqual(plan?.widths, [0, 2, 0]);
    const { ids, close } = probe();
    assert.deepEqual(ids(`SELECT '?' AS "a?", id FROM t WHERE n > ? AND id in (?, ?) AND 'in (?, ?)' <> '' ORDER BY id LIMIT ?`, [1, 'b', "it's", 5]), ['b', "it's"]);
    close();
  });

  it('should run the statement as written when a listed value has no JSON form (a blob)', () => {
    const { ids, prepared, close } = probe();
    assert.deepEqual(ids(`SELECT id FROM t WHERE b in (${list(2)}) ORDER BY id`, [Buffer.from([1]), Buffer.from([2])]), ['a', 'b']);
    assert.equal(prepared.length, 2, 'the rewritten text, then the text as written');
    close();
  });

  it('should keep a list of one value as it is', () => {
    assert.equal(planInLists('SELECT id FROM t WHERE id in (?)'), null);
  });
});
