import { joinParts } from '../../core/json-text.js';
import { readSnapshotParts } from '../../db/schema/snapshot-parts.js';
import type { PartRefs } from '../../core/json-text.js';
import type { Row } from '../../core/registry/types.js';
import type { AppExtensions, ComputedLoader } from '../../ops/extensions.js';

/** The part ids a change record's snapshot refers to. */
function partIds(row: Row): string[] {
  const refs = row.object_data_v2_parts as PartRefs | null;
  if (!refs) return [];
  return Object.values(refs).flatMap((ref) => (typeof ref === 'string' ? [ref] : ref.filter((id): id is string => id !== null)));
}

/**
 * Each change record's object_data_v2 made whole: its related objects, kept apart when it was
 * written (ops/write/changelog.ts), are read for all the rows at once and put back in place.
 * Records without parts read as stored.
 */
const wholeSnapshots: ComputedLoader = async ({ services, exec, rows }) => {
  const ids = rows.flatMap(partIds);
  const found = ids.length > 0 ? await readSnapshotParts(services.store, exec, ids) : new Map<string, unknown>();
  return new Map(rows.map((row) => {
    const stored = row.object_data_v2 as Record<string, unknown> | null;
    const refs = row.object_data_v2_parts as PartRefs | null;
    return [row.id, stored && refs ? joinParts(stored, refs, found) : stored];
  }));
};

/** Change records read their snapshots whole. */
export const changeSnapshotsTable: AppExtensions = {
  'extras.objectchange': { computed: { object_data_v2: wholeSnapshots } },
};
