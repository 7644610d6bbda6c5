import { chunk } from '../store.js';
import type { JsonText } from '../../core/json-text.js';
import type { Exec, Store } from '../store.js';
import type { TableSpec } from './build-schema.js';

/**
 * The related objects of change-record snapshots, each distinct rendering stored once and named
 * by its content (core/json-text.ts, `SnapshotSplitter`). A bulk create of 1000 rooms under a few
 * buildings repeats the same parent, type, status and tags in every snapshot: kept apart, the
 * records shrink from about 4.9 MB to 1.5 MB of JSON. Parts are only ever added.
 */
export const SNAPSHOT_PARTS_TABLE: TableSpec = {
  name: 'extras_objectchange_part',
  columns: [{ name: 'id', storage: 'uuid', primary: true }, { name: 'data', storage: 'document', notNull: true }],
  indexes: [],
};

/**
 * Stores parts not stored yet, in id order (two writes adding the same new parts wait for each
 * other instead of deadlocking).
 */
export async function writeSnapshotParts(store: Store, exec: Exec, parts: Map<string, JsonText>): Promise<void> {
  const rows = [...parts].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([id, text]) => ({ id, data: store.dialect.encode('document', text) }));
  for (const part of chunk(rows)) {
    await exec.insertInto(SNAPSHOT_PARTS_TABLE.name).values(part).onConflict((oc) => oc.column('id').doNothing()).execute();
  }
}

/** The parts with these ids, decoded (as the dialect reads a JSON document). */
export async function readSnapshotParts(store: Store, exec: Exec, ids: Iterable<string>): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  for (const part of chunk([...new Set(ids)])) {
    const rows = await exec.selectFrom(SNAPSHOT_PARTS_TABLE.name).select(['id', 'data']).where('id', 'in', part).execute();
    for (const row of rows) found.set(String(row.id), store.dialect.decode('document', row.data));
  }
  return found;
}
