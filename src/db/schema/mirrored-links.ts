import { joinTable } from './build-schema.js';
import type { Dialect } from '../dialects/dialect.js';
import type { Registry } from '../../core/registry/registry.js';

/**
 * Fills, in a database written by an older build, the link tables of the to-many fields that
 * build left empty: a field declared `through` an assignment model gets its assignments' pairs
 * (one statement per field); the two ends of a `reverse_of` pair each gain the other's pairs.
 */
export async function fillMirroredLinks(dialect: Dialect, registry: Registry): Promise<void> {
  const db = dialect.db;
  for (const model of registry.models) {
    for (const field of model.fields) {
      if (field.through) {
        const assignment = registry.get(field.through.model);
        const owner = assignment.fieldMap.get(field.through.owner)?.column as string;
        const target = assignment.fieldMap.get(field.through.target)?.column as string;
        const table = joinTable(model, field);
        await db.deleteFrom(table).execute();
        await db.insertInto(table).columns(['source_id', 'target_id'])
          .expression(db.selectFrom(assignment.table).select([`${owner} as source_id`, `${target} as target_id`]).distinct().where(owner, 'is not', null).where(target, 'is not', null))
          .execute();
      }
      if (field.reverse_of) {
        const cut = field.reverse_of.lastIndexOf('.');
        const other = registry.get(field.reverse_of.slice(0, cut));
        const otherTable = joinTable(other, other.fieldMap.get(field.reverse_of.slice(cut + 1))!);
        const table = joinTable(model, field);
        for (const [from, to] of [[otherTable, table], [table, otherTable]]) {
          await db.insertInto(to).columns(['source_id', 'target_id'])
            .expression(db.selectFrom(`${from} as f`).select(['f.target_id as source_id', 'f.source_id as target_id'])
              .where(({ not, exists, selectFrom }) => not(exists(selectFrom(`${to} as t`).select('t.source_id').whereRef('t.source_id', '=', 'f.target_id').whereRef('t.target_id', '=', 'f.source_id')))))
            .execute();
        }
      }
    }
  }
}
