import { memoByGeneration } from '../../../db/generation-memo.js';
import { joinTable } from '../../../db/schema/build-schema.js';
import { col } from '../../../db/query/sql-helpers.js';
import type { Exec } from '../../../db/store.js';
import type { Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

/** A custom field as the value checks and filters need it (extras.customfield plus its choices). */
export type CustomFieldDef = {
  id: string;
  key: string;
  label: string;
  type: string;
  required: boolean;
  default: unknown;
  filter_logic: string;
  validation_minimum: number | null;
  validation_maximum: number | null;
  validation_regex: string;
  /** Choice values in order (select and multi-select). */
  choices: string[];
  /** Choice id -> value (a select filter also takes a choice's id). */
  choiceIds: Map<string, string>;
};

/** Turns a stored extras.customfield row into a definition (choices filled later). */
export function toDef(row: Row): CustomFieldDef {
  return {
    id: row.id,
    key: String(row.key),
    label: String(row.label),
    type: String(row.type),
    required: row.required === true,
    default: row.default ?? null,
    filter_logic: String(row.filter_logic ?? 'loose'),
    validation_minimum: (row.validation_minimum as number | null) ?? null,
    validation_maximum: (row.validation_maximum as number | null) ?? null,
    validation_regex: String(row.validation_regex ?? ''),
    choices: [],
    choiceIds: new Map(),
  };
}

/** Fills `choices` of select and multi-select definitions (one query). */
export async function loadChoices(services: Services, exec: Exec, defs: CustomFieldDef[]): Promise<void> {
  const selects = defs.filter((d) => d.type === 'select' || d.type === 'multi-select');
  if (selects.length === 0) return;
  const model = services.registry.get('extras.customfieldchoice');
  const rows = await exec.selectFrom(model.table).select(['id', 'value', 'custom_field_id'])
    .where('custom_field_id', 'in', selects.map((d) => d.id)).orderBy('weight').orderBy('value').execute();
  const byId = new Map(selects.map((d) => [d.id, d]));
  for (const r of rows) {
    const def = byId.get(r.custom_field_id as string);
    def?.choices.push(String(r.value));
    def?.choiceIds.set(String(r.id), String(r.value));
  }
}

/** Custom fields enabled for a model, ordered by weight then label; `where` narrows them (e.g. by key). */
export async function loadCustomFields(services: Services, exec: Exec, modelId: string, opts: { key?: string; choices?: boolean } = {}): Promise<CustomFieldDef[]> {
  const cf = services.registry.get('extras.customfield');
  const link = joinTable(cf, cf.fieldMap.get('content_types')!);
  let query = exec.selectFrom(cf.table).selectAll(cf.table)
    .where(col(cf.table, 'id'), 'in', exec.selectFrom(link).select('source_id').where('content_type', '=', modelId));
  if (opts.key !== undefined) query = query.where('key', '=', opts.key);
  const rows = await query.orderBy('weight').orderBy('label').execute();
  const defs = rows.map((r) => toDef(services.store.decode(cf, r)));
  if (opts.choices !== false) await loadChoices(services, exec, defs);
  return defs;
}

/**
 * Every model's custom field keys in display order (one query for all models), kept per write
 * generation. `generation`: a read-only request's (SerializeOptions.generation); without it,
 * where reading one costs a statement, the keys are read afresh.
 */
export function loadKeysByModel(services: Services, exec: Exec, generation?: Promise<string | null>): Promise<Map<string, string[]>> {
  return memoByGeneration(services.dialect, 'custom-field-keys', () => readKeysByModel(services, exec), generation);
}

async function readKeysByModel(services: Services, exec: Exec): Promise<Map<string, string[]>> {
  const cf = services.registry.get('extras.customfield');
  const link = joinTable(cf, cf.fieldMap.get('content_types')!);
  const rows = await exec.selectFrom(cf.table).innerJoin(link, `${link}.source_id`, `${cf.table}.id`)
    .select([`${cf.table}.key as key`, `${link}.content_type as content_type`])
    .orderBy(`${cf.table}.weight`).orderBy(`${cf.table}.label`).execute();
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(String(r.content_type), [...(out.get(String(r.content_type)) ?? []), String(r.key)]);
  return out;
}
