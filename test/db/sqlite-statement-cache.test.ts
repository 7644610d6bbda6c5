import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countedPrepares } from '../helpers/counted-prepares.js';

/** A connection whose prepares are counted, behind the service's statement cache. */
const countedCache = () => countedPrepares('CREATE TABLE t (a, b)');

/** A multi-row insert of `rows` rows: 8 characters a row. */
const insertOf = (rows: number) => `INSERT INTO t (a, b) VALUES ${Array(rows).fill('(?, ?)').join(', ')}`;

describe('SQLite statement cache', () => {
  it('should prepare a short and a long statement once each when they come again', () => {
    const { db, prepared, close } = countedCache();
    for (let i = 0; i < 3; i++) {
      db.prepare('SELECT a FROM t');
      db.prepare(insertOf(1000));
    }
    assert.equal(prepared.length, 2);
    close();
  });

  it('should let go of the least recently used long statements beyond their texts budget', () => {
    const { db, prepared, close } = countedCache();
    // 40 distinct inserts of 800-839 rows (6 400-6 700 characters each): 262 000 characters.
    for (let rows = 800; rows < 840; rows++) db.prepare(insertOf(rows)).run(Array(rows * 2).fill(1));
    assert.equal(prepared.length, 40);
    db.prepare(insertOf(839));
    assert.equal(prepared.length, 40, 'the most recent long statement is still kept');
    db.prepare(insertOf(800));
    assert.equal(prepared.length, 41, 'the oldest one was let go and is prepared again');
    close();
  });
  it('should let go of the least recently used short statements beyond their own texts budget', () => {
    const { db, prepared, close } = countedCache();
    db.prepare('SELECT a FROM t');
    // 100 distinct inserts of 400-499 rows (3 200-3 999 characters each, under the long texts'
    // threshold): 360 000 characters, more than the short texts' budget; a count of statements
    // alone (2 000) kept them all.
    for (let rows = 400; rows < 500; rows++) db.prepare(insertOf(rows));
    assert.equal(prepared.length, 101);
    db.prepare(insertOf(499));
    assert.equal(prepared.length, 101, 'the most recent short statement is still kept');
    db.prepare('SELECT a FROM t');
    assert.equal(prepared.length, 102, 'the least recently used one was let go and is prepared again');
    close();
  });
});
