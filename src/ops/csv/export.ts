import { collectGarbage } from '../../core/gc.js';
import { openRowBatches } from '../export.js';
import { loadForSerialization } from '../serialize/plan.js';
import { renderRows } from '../serialize/render.js';
import { CSV_NULL, toCell, toCsvLines } from './cells.js';
import { buildFkLookups, readLookup } from './lookups.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { Params } from '../filters/apply.js';
import type { Loaded } from '../serialize/plan.js';
import type { RequestContext, Services } from '../services.js';
import type { FkLookups } from './lookups.js';

/** Keys of the API record that CSV leaves out (api-behaviour.md section 12). */
const SKIPPED = new Set(['url', 'notes_url', 'custom_fields', 'computed_fields', 'relationships']);
/** Moved to the front, each in turn, as the reference renderer does: name, display, id. */
const FRONT = ['id', 'composite_key', 'display', 'name'];

/**
 * Rows per export batch: small enough that a batch's objects die young (the V8 young
 * generation collects them cheaply), so a long export's memory stays flat.
 */
const CSV_BATCH = 100;

/**
 * Ids per keyset query of an export: an order no index serves (interfaces by name) sorts the
 * table once per query, so reading 1000 ids a query (then their rows 100 at a time) sorts ten
 * times less than a query per batch: 102 000 interfaces by name in 15 s instead of 38 (SQLite),
 * 24 instead of 48 (PostgreSQL). Only ids are held meanwhile, not rows.
 */
const KEYSET_ROWS = 1000;

/**
 * Characters of CSV after which a long export asks for a full garbage collection: its batches
 * are garbage as soon as they are sent, but the ones waiting for the client outlive the young
 * generation, and V8 lets the old one grow with them (about 120 MB over 100 000 interfaces)
 * long before it collects; collecting every few megabytes keeps the export's memory flat.
 */
const COLLECT_EVERY = 8 * 1024 * 1024;

/** One CSV record: column -> cell text, in column order. */
export type CsvRecord = Map<string, string>;

/** What rendering a model's rows as CSV needs, computed once per export. */
export type CsvPlan = { services: Services; model: ResolvedModel; lookups: FkLookups; baseUrl: string; omitCounts?: boolean };

/** Builds the plan: the natural-key lookup columns of every FK (trees to their current depth). */
export async function buildCsvPlan(services: Services, model: ResolvedModel, opts: { baseUrl: string; omitCounts?: boolean }): Promise<CsvPlan> {
  return { services, model, lookups: await buildFkLookups(services, model), ...opts };
}

/** Tags are the only many-to-many objects CSV carries (as names); content types are labels. */
function isCarriedToMany(field: ResolvedField): boolean {
  return field.behaviour.relation === 'content_types' || (field.behaviour.relation === 'm2m' && !!field.common);
}

function linkedNames(plan: CsvPlan, loaded: Loaded, field: ResolvedField, row: Row): string {
  const ids = loaded.links.get(`${plan.model.id}.${field.name}`)?.get(row.id) ?? [];
  const target = plan.services.registry.get(field.to as string);
  const names = ids.map((id) => loaded.loader.get(target.id, id)).filter((r): r is Row => !!r).map((r) => String(loaded.loader.naturalKey(target, r)[0] ?? r.id));
  return names.sort().join(',');
}

function toRecord(plan: CsvPlan, loaded: Loaded, row: Row, json: Record<string, unknown>): CsvRecord {
  const out: CsvRecord = new Map();
  for (const [key, value] of Object.entries(json)) {
    if (SKIPPED.has(key)) continue;
    const field = plan.model.fieldMap.get(key);
    if (field?.hidden) continue;
    const relation = field?.behaviour.relation;
    if (relation === 'fk' && plan.lookups.has(key)) {
      for (const lookup of plan.lookups.get(key) ?? []) out.set(`${key}__${lookup}`, readLookup(plan.services, loaded.loader, plan.model, row, `${key}__${lookup}`));
    } else if (relation === 'm2m') {
      if (field && isCarriedToMany(field)) out.set(key, linkedNames(plan, loaded, field, row));
      // The to-many fields the reference's serializer adds after its own (prefix vrfs, contact teams, ...) as ids.
      else if (field?.after_tail && Array.isArray(value)) out.set(key, value.map((v) => String((v as { id?: unknown }).id)).join(','));
    } else out.set(key, value === null ? CSV_NULL : toCell(value));
  }
  const custom = json.custom_fields;
  if (custom && typeof custom === 'object') {
    for (const [key, value] of Object.entries(custom)) out.set(`cf_${key}`, toCell(value));
  }
  return out;
}

/** Loads FK targets and their natural-key chains (parents of trees included) for the lookups. */
async function loadLookupTargets(plan: CsvPlan, loaded: Loaded, rows: Row[]): Promise<void> {
  for (const name of plan.lookups.keys()) {
    const field = plan.model.fieldMap.get(name) as ResolvedField;
    const target = plan.services.registry.get(field.to as string);
    const targets = await loaded.loader.ensure(target, rows.map((r) => r[field.column as string]));
    await loaded.loader.ensureNeeds(target, targets);
  }
}

/** Rows -> CSV records, with a fixed number of queries per call. */
export async function toCsvRecords(plan: CsvPlan, rows: Row[]): Promise<CsvRecord[]> {
  const db = plan.services.dialect.db;
  const opts = { depth: 0, baseUrl: plan.baseUrl, include: new Set<string>(), excludeM2m: false, omitCounts: plan.omitCounts, linkTargets: true };
  const loaded = await loadForSerialization(plan.services, db, plan.model, rows, opts);
  await loadLookupTargets(plan, loaded, rows);
  const json = renderRows(plan.services, loaded, plan.model, rows, opts);
  return rows.map((row, i) => toRecord(plan, loaded, row, json[i]));
}

/** Header: the first record's columns, then sorted `cf_` columns, then name/display/id first. */
export function toCsvHeader(first: CsvRecord, customKeys: Iterable<string>): string[] {
  const base = [...first.keys()].filter((k) => !k.startsWith('cf_'));
  const headers = [...base, ...[...new Set(customKeys)].sort().map((k) => `cf_${k}`)];
  for (const key of FRONT) {
    const at = headers.indexOf(key);
    if (at >= 0) headers.unshift(...headers.splice(at, 1));
  }
  return headers;
}

/** Records as CSV lines under `header`; a missing custom field is an empty cell. */
export function toCsvText(header: string[], records: CsvRecord[], withHeader: boolean): string {
  const lines = records.map((r) => header.map((h) => r.get(h) ?? ''));
  return toCsvLines(withHeader ? [header, ...lines] : lines);
}

/** Rows held in memory (detail and write responses) as one CSV document. */
export async function rowsToCsv(plan: CsvPlan, rows: Row[]): Promise<string> {
  if (rows.length === 0) return '';
  const records = await toCsvRecords(plan, rows);
  const keys = records.flatMap((r) => [...r.keys()].filter((k) => k.startsWith('cf_')).map((k) => k.slice(3)));
  return toCsvText(toCsvHeader(records[0], keys), records, true);
}

/** Custom-field keys used anywhere in the export: one pass over that column only. */
async function collectCustomKeys(plan: CsvPlan, rc: RequestContext, params: Params): Promise<Set<string>> {
  const keys = new Set<string>();
  const column = plan.model.fieldMap.get('custom_fields')?.column;
  if (!column) return keys;
  // In id order: the keys' order does not matter here, and a list order through an FK (interfaces
  // by device) would first read every id of the list in that order (102 000 interfaces: ~40 MB
  // more at the export's start).
  for await (const rows of await openRowBatches(plan.services, rc, plan.model, { params, columns: [column], sort: 'id', batchSize: 2000 })) {
    for (const row of rows) for (const key of Object.keys((row[column] as object | null) ?? {})) keys.add(key);
  }
  return keys;
}

/**
 * The whole filtered list as CSV text chunks, one per batch of rows: constant memory, no
 * pagination. Filter and permission errors are thrown before the first chunk.
 */
export async function openCsvExport(plan: CsvPlan, rc: RequestContext, query: { params: Params; sort?: string }): Promise<AsyncIterable<string>> {
  const batches = await openRowBatches(plan.services, rc, plan.model, { ...query, batchSize: CSV_BATCH, keysetRows: KEYSET_ROWS });
  const customKeys = await collectCustomKeys(plan, rc, query.params);
  return (async function* chunks() {
    let header: string[] | undefined;
    let sent = 0;
    for await (const rows of batches) {
      const records = await toCsvRecords(plan, rows);
      const withHeader = !header;
      header ??= toCsvHeader(records[0], customKeys);
      const text = toCsvText(header, records, withHeader);
      sent += text.length;
      if (sent >= COLLECT_EVERY) {
        sent = 0;
        collectGarbage();
      }
      yield text;
    }
  })();
}
