import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { checkedMediaPath } from '../../core/media/paths.js';
import { imageFields } from '../../core/registry/image-fields.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';

/** The stored files `before` named in image fields that `after` (the same rows, written; none when deleted) no longer names. */
function releasedPaths(model: ResolvedModel, before: Row[], after: Map<string, Row> | null): Map<string, Set<string>> {
  const released = new Map<string, Set<string>>();
  for (const field of imageFields(model)) {
    const column = field.column as string;
    const paths = new Set<string>();
    for (const row of before) {
      const old = row[column];
      if (typeof old === 'string' && old !== '' && after?.get(row.id as string)?.[column] !== old) paths.add(old);
    }
    if (paths.size > 0) released.set(column, paths);
  }
  return released;
}

/**
 * After a write committed: removes the files its image fields let go (the rows deleted, or their
 * image replaced or cleared), as the reference's image models delete theirs on delete and save.
 * A file another row of the model still names is kept. Failures are ignored (the write stands).
 */
export async function discardImages(services: Services, model: ResolvedModel, before: Row[], after: Row[] | null): Promise<void> {
  if (imageFields(model).length === 0 || before.length === 0) return;
  const released = releasedPaths(model, before, after && new Map(after.map((row) => [row.id as string, row])));
  for (const [column, paths] of released) {
    const stillNamed = await services.dialect.db.selectFrom(model.table).select(column).where(column, 'in', [...paths]).execute();
    for (const row of stillNamed) paths.delete(row[column] as string);
    await Promise.all([...paths].map((relative) => {
      const path = checkedMediaPath(relative);
      return path ? unlink(join(services.config.mediaRoot, path)).catch(() => undefined) : undefined;
    }));
  }
}
