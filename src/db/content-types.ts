import { reserveRowIds } from './schema/id-sequences.js';
import type { Kysely } from 'kysely';
import type { Registry } from '../core/registry/registry.js';
import type { ResolvedModel } from '../core/registry/types.js';
import type { Dialect } from './dialects/dialect.js';

/** The content type model: one row per model the registry knows (`contenttypes.contenttype`). */
export const CONTENT_TYPE_MODEL = 'contenttypes.contenttype';

type Stored = { id: unknown; app_label: string; model: string; model_verbose_name: string };
type Wanted = { app_label: string; model: string; model_verbose_name: string };

/** A registry model id `app_label.model` as its content type's two parts. */
export function toContentTypeKey(modelId: string): { app_label: string; model: string } {
  const cut = modelId.indexOf('.');
  return { app_label: modelId.slice(0, cut), model: modelId.slice(cut + 1) };
}

/** What the rows should hold: every registry model, in the order new ids are given (app_label, then model). */
function wantedRows(registry: Registry): Wanted[] {
  const rows = registry.models.map((m) => ({ ...toContentTypeKey(m.id), model_verbose_name: m.verbose_name }));
  return rows.sort((a, b) => (a.app_label === b.app_label ? cmp(a.model, b.model) : cmp(a.app_label, b.app_label)));
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Inserts the content types the table lacks, with the next ids of its sequence. */
async function insertMissing(trx: Kysely<any>, model: ResolvedModel, missing: Wanted[]): Promise<void> {
  const ids = await reserveRowIds(trx, model, missing.length);
  const rows = missing.map((row, i) => ({ id: Number(ids[i]), ...row }));
  for (let i = 0; i < rows.length; i += 200) await trx.insertInto(model.table).values(rows.slice(i, i + 200)).execute();
}

/**
 * Keeps the content type table in step with the registry, as the reference's post-migrate step
 * does: a model without a row gains one; a stored row keeps its id forever, so ids never move
 * between starts; a row whose model is gone stays (Django keeps stale content types too) and
 * then displays as its bare model name. Writes nothing when the table is already in step.
 */
export async function syncContentTypes(dialect: Dialect, registry: Registry): Promise<void> {
  const model = registry.find(CONTENT_TYPE_MODEL);
  if (!model) return;
  const wanted = wantedRows(registry);
  const known = new Set(wanted.map((w) => `${w.app_label}.${w.model}`));
  await dialect.db.transaction().execute(async (trx) => {
    await dialect.lockTable(trx, model.table);
    const stored = (await trx.selectFrom(model.table).select(['id', 'app_label', 'model', 'model_verbose_name']).execute()) as Stored[];
    const byKey = new Map(stored.map((s) => [`${s.app_label}.${s.model}`, s]));
    const missing = wanted.filter((w) => !byKey.has(`${w.app_label}.${w.model}`));
    if (missing.length > 0) await insertMissing(trx, model, missing);
    const changes = [
      ...wanted.filter((w) => byKey.has(`${w.app_label}.${w.model}`) && byKey.get(`${w.app_label}.${w.model}`)!.model_verbose_name !== w.model_verbose_name),
      ...stored.filter((s) => !known.has(`${s.app_label}.${s.model}`) && s.model_verbose_name !== '').map((s) => ({ ...s, model_verbose_name: '' })),
    ];
    for (const c of changes) {
      await trx.updateTable(model.table).set({ model_verbose_name: c.model_verbose_name }).where('app_label', '=', c.app_label).where('model', '=', c.model).execute();
    }
  });
}
