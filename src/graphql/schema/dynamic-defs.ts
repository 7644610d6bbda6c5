import { createHash } from 'node:crypto';
import { memoByGeneration } from '../../db/generation-memo.js';
import { joinTable } from '../../db/schema/build-schema.js';
import type { Exec } from '../../db/store.js';
import type { FilterDef } from '../../ops/filters/filter-set.js';
import type { Services } from '../../ops/services.js';

/** A custom field as the schema needs it: `cf_<key>` on each of its models, typed by `type`. */
export type CustomFieldDef = { key: string; type: string; models: string[] };

/** A relationship as the schema needs it: `rel_<key>` on its source and destination models. */
export type RelationshipDef = { id: string; key: string; type: string; source_type: string; destination_type: string };

/** A computed field: `cpf_<key>` on its model. */
export type ComputedFieldDef = { key: string; model: string };

/**
 * What shapes the schema besides the registry, read from the database: custom fields,
 * relationships, computed fields, and the filter families whose names depend on data
 * (`cf_<key>`, `cr_<key>__<side>`) by model id. `fingerprint` changes exactly when any of them does.
 */
export type DynamicDefs = {
  customFields: CustomFieldDef[];
  relationships: RelationshipDef[];
  computedFields: ComputedFieldDef[];
  filters: ReadonlyMap<string, Record<string, FilterDef>>;
  fingerprint: string;
};

async function readCustomFields(services: Services, exec: Exec): Promise<CustomFieldDef[]> {
  const cf = services.registry.get('extras.customfield');
  const link = joinTable(cf, cf.fieldMap.get('content_types')!);
  const rows = await exec.selectFrom(cf.table).innerJoin(link, `${link}.source_id`, `${cf.table}.id`)
    .select([`${cf.table}.key as key`, `${cf.table}.type as type`, `${link}.content_type as content_type`])
    .orderBy(`${cf.table}.weight`).orderBy(`${cf.table}.label`).orderBy(`${link}.content_type`).execute();
  const byKey = new Map<string, CustomFieldDef>();
  for (const row of rows) {
    const def = byKey.get(String(row.key)) ?? { key: String(row.key), type: String(row.type), models: [] };
    def.models.push(String(row.content_type));
    byKey.set(def.key, def);
  }
  return [...byKey.values()];
}

async function readRelationships(services: Services, exec: Exec): Promise<RelationshipDef[]> {
  const model = services.registry.get('extras.relationship');
  const rows = await exec.selectFrom(model.table).select(['id', 'key', 'type', 'source_type', 'destination_type']).orderBy('label').execute();
  return rows.map((r) => ({ id: String(r.id), key: String(r.key), type: String(r.type), source_type: String(r.source_type), destination_type: String(r.destination_type) }));
}

async function readComputedFields(services: Services, exec: Exec): Promise<ComputedFieldDef[]> {
  const model = services.registry.get('extras.computedfield');
  const rows = await exec.selectFrom(model.table).select(['key', 'content_type']).orderBy('weight').orderBy('key').execute();
  return rows.map((r) => ({ key: String(r.key), model: String(r.content_type) }));
}

/** Every extension's data-dependent filter families, merged by model id (one query each). */
async function readDynamicFilters(services: Services, exec: Exec): Promise<Map<string, Record<string, FilterDef>>> {
  const listers = new Set([...services.extensions.values()].flat().flatMap((ext) => (ext.listDynamicFilters ? [ext.listDynamicFilters] : [])));
  const out = new Map<string, Record<string, FilterDef>>();
  for (const list of listers) {
    for (const [modelId, families] of await list({ services, exec })) out.set(modelId, { ...out.get(modelId), ...families });
  }
  return out;
}

/** What of a filter family the schema shows: its name, lookups and value type. */
function describeFilters(filters: Map<string, Record<string, FilterDef>>): unknown[] {
  return [...filters].sort(([a], [b]) => a.localeCompare(b)).map(([modelId, families]) => [modelId, Object.entries(families).map(([name, def]) => [name, [...def.lookups], def.schema?.type ?? ''])]);
}

async function readDefs(services: Services): Promise<DynamicDefs> {
  const exec = services.dialect.db;
  const [customFields, relationships, computedFields, filters] = await Promise.all([
    readCustomFields(services, exec), readRelationships(services, exec), readComputedFields(services, exec), readDynamicFilters(services, exec),
  ]);
  const shape = JSON.stringify([customFields, relationships, computedFields, describeFilters(filters)]);
  return { customFields, relationships, computedFields, filters, fingerprint: createHash('sha1').update(shape).digest('hex') };
}

/**
 * The definitions as they are now, read once per write generation of the database (a request's
 * generation where reading one costs a statement): a custom field, relationship or computed
 * field added by any process reaches every process's schema on its next request.
 */
export function loadDynamicDefs(services: Services, generation?: Promise<string | null>): Promise<DynamicDefs> {
  return memoByGeneration(services.dialect, 'graphql-dynamic-defs', () => readDefs(services), generation);
}
