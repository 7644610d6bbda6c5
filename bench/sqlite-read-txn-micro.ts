/** Micro: the location detail's statements autocommit vs in one read transaction. node --import tsx bench/sqlite-read-txn-micro.ts <db file> */
import Database from 'better-sqlite3';
const db = new Database(process.argv[2]);
db.pragma('journal_mode = WAL');
const id = '0115d69f-2812-45de-ba3c-135e9f838d8e';
const s1 = db.prepare('select * from "dcim_location" where "id" in (?)').raw(true);
const s2 = db.prepare('SELECT 0 AS k, "source_id" AS source_id, CAST("target_id" AS text) AS value FROM "dcim_location__tags" WHERE "source_id" IN (?)').raw(true);
const s3 = db.prepare('SELECT 0 AS k, "location_id" AS v, count(*) AS n FROM "dcim_device" WHERE "location_id" IN (?) GROUP BY "location_id" UNION ALL SELECT 1 AS k, "location_id" AS v, count(*) AS n FROM "dcim_rack" WHERE "location_id" IN (?) GROUP BY "location_id"').raw(true);
const v = db.prepare('PRAGMA data_version').pluck(); const c = db.prepare('SELECT total_changes()').pluck();
const b = db.prepare('BEGIN'); const e = db.prepare('COMMIT');
const seq = () => { v.get(); c.get(); s1.all(id); s2.all(id); s3.all(id, id); v.get(); c.get(); };
const variants: Record<string, () => void> = { autocommit: seq, snapshot: () => { b.run(); seq(); e.run(); } };
for (let round = 0; round < 3; round++) for (const [name, f] of Object.entries(variants)) {
  for (let i = 0; i < 5000; i++) f();
  const t = process.hrtime.bigint(); const N = 30000;
  for (let i = 0; i < N; i++) f();
  console.log(name, (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(1), 'µs per request sequence');
}
