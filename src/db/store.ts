import { CompiledQuery, sql } from 'kysely';
import { insertRows, updateRows } from './bulk-rows.js';
import { joinTable } from './schema/build-schema.js';
import { toNaturalKey } from '../core/natural-order.js';
import { compareContentTypes } from '../core/registry/content-type-order.js';
import { memoByGeneration } from './generation-memo.js';
import { compileRowBuilder } from './row-builder.js';
import type { MemoTable } from './generation-memo.js';
import { insideTransaction } from './dialects/transaction-guard.js';
import type { Kysely } from 'kysely';
import type { Dialect } from './dialects/dialect.js';
import type { ResolvedField, ResolvedModel, Row } from '../core/registry/types.js';

/** A table and the column whose values a count groups by (`countByMany`). */
export type CountSource = { table: string; column: string };

/** A Kysely handle: the database or an open transaction. */
export type Exec = Kysely<any>;

/** Rows per IN (...) list: a whole page (MAX_PAGE_SIZE 1000) fits one statement. */
const CHUNK = 1000;

/** Characters of statement text the store keeps (see `statementText`). */
const TEXT_CACHE_CHARS = 8_000_000;

/**
 * Tree ancestor chains kept per write generation: their own table (many keys, by ids), so pages of
 * many different sets never empty the token look-ups' table; 200 keys bound it to a few MB.
 */
const TREE_CHAINS: MemoTable = { name: 'tree-chains', maxKeys: 200 };

/** Bound parameters per statement: under SQLite's 32766 and PostgreSQL's 65535. */
const MAX_PARAMS = 30000;

/** Rows per multi-row statement carrying `perRow` parameters each (at most CHUNK). */
export function rowsPerStatement(perRow: number): number {
  return Math.max(1, Math.min(CHUNK, Math.floor(MAX_PARAMS / Math.max(1, perRow))));
}

export function chunk<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Row-level access to the registry's tables: encode/decode through the dialect, bulk reads by
 * id, inserts, updates, deletes and to-many links. Knows nothing of HTTP or validation.
 */
export class Store {
  private readonly texts = new Map<string, string>();
  private readonly decoders = new Map<ResolvedModel, (raw: Record<string, unknown>) => Row>();
  private readonly arrayDecoders = new WeakMap<ResolvedModel, WeakMap<readonly string[], (values: unknown[]) => Row>>();
  private readonly sources = new Map<ResolvedModel, string[]>();
  private readonly byColumn = new WeakMap<ResolvedModel, Map<string, ResolvedField>>();
  private textChars = 0;

  constructor(readonly dialect: Dialect) {}

  /** A stored row (the columns read) as a row in memory: dialect codec, then the kind's. */
  decode(model: ResolvedModel, raw: Record<string, unknown>): Row {
    let decode = this.decoders.get(model);
    if (!decode) {
      decode = this.compileDecoder(model);
      this.decoders.set(model, decode);
    }
    return decode(raw);
  }

  /**
   * `decode` for one model, compiled once: columns whose values need no decoding on this
   * database are copied, the others go through the dialect's and the kind's codecs.
   */
  private compileDecoder(model: ResolvedModel): (raw: Record<string, unknown>) => Row {
    const kinds = model.columns.map((f) => (f.behaviour.decode ? f.behaviour.decode.bind(f.behaviour) : null));
    const lines = model.columns.map((field, i) => {
      const key = JSON.stringify(field.column);
      if (!kinds[i] && !this.dialect.decodes.has(field.behaviour.storage)) return `if (${key} in raw) row[${key}] = raw[${key}] ?? null;`;
      return `if (${key} in raw) { const v = dialect.decode(${JSON.stringify(field.behaviour.storage)}, raw[${key}]); row[${key}] = v !== null && kinds[${i}] ? kinds[${i}](v, raw) : v; }`;
    });
    const build = new Function('dialect', 'kinds', `return function decode(raw) { const row = {}; ${lines.join(' ')} return row; };`);
    return build(this.dialect, kinds) as (raw: Record<string, unknown>) => Row;
  }

  /**
   * Where the dialect gives a statement's rows as arrays (SQLite), a reader of whole rows of
   * `model` that decodes each row once from its array (readPage's `read`: the page comes back
   * decoded); undefined elsewhere (PostgreSQL), where the caller decodes the driver's rows.
   */
  pageReader(exec: Exec, model: ResolvedModel): ((text: string, params: readonly unknown[]) => Promise<Row[]>) | undefined {
    return this.dialect.readArrays ? (text, params) => this.readDecoded(exec, model, text, params) : undefined;
  }

  /** The rows of a statement reading whole rows of `model`, decoded (from the driver's arrays where the dialect gives them). */
  private async readDecoded(exec: Exec, model: ResolvedModel, text: string, params: readonly unknown[]): Promise<Row[]> {
    const arrays = this.dialect.readArrays ? await this.dialect.readArrays(exec, text, params) : null;
    if (!arrays) return (await this.dialect.readRows(exec, text, params)).map((r) => this.decode(model, r));
    return arrays.rows.map(this.arrayDecoder(model, arrays.names));
  }

  /** `decode` of a row given as the values of a statement's `names`, compiled once per model and statement. */
  private arrayDecoder(model: ResolvedModel, names: readonly string[]): (values: unknown[]) => Row {
    let perStatement = this.arrayDecoders.get(model);
    if (!perStatement) this.arrayDecoders.set(model, (perStatement = new WeakMap()));
    let decode = perStatement.get(names);
    if (!decode) {
      decode = this.compileArrayDecoder(model, names);
      perStatement.set(names, decode);
    }
    return decode;
  }

  /**
   * As `compileDecoder`, reading each column from its index (the last of a repeated name, as the
   * driver's objects hold it). A kind whose decoding reads other columns of the row (its codec
   * takes the row) gets the row as an object, as `decode` does.
   */
  private compileArrayDecoder(model: ResolvedModel, names: readonly string[]): (values: unknown[]) => Row {
    if (model.columns.some((f) => (f.behaviour.decode?.length ?? 0) >= 2)) {
      const toObject = compileRowBuilder(names);
      return (values) => this.decode(model, toObject(values));
    }
    const kinds = model.columns.map((f) => (f.behaviour.decode ? f.behaviour.decode.bind(f.behaviour) : null));
    const lines = model.columns.flatMap((field, i) => {
      const at = names.lastIndexOf(field.column as string);
      if (at < 0) return [];
      const key = JSON.stringify(field.column);
      if (!kinds[i] && !this.dialect.decodes.has(field.behaviour.storage)) return [`row[${key}] = v[${at}] ?? null;`];
      return [`{ const x = dialect.decode(${JSON.stringify(field.behaviour.storage)}, v[${at}]); row[${key}] = x !== null && kinds[${i}] ? kinds[${i}](x) : x; }`];
    });
    const build = new Function('dialect', 'kinds', `return function decode(v) { const row = {}; ${lines.join(' ')} return row; };`);
    return build(this.dialect, kinds) as (values: unknown[]) => Row;
  }

  /**
   * A row (or the changed columns of one) as driver parameters. A natural-order key column is
   * derived here from its source column whenever that is written, so every write keeps it.
   */
  encode(model: ResolvedModel, row: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const field of model.columns) if (this.writes(model, field, row)) out[field.column as string] = this.columnValue(model, field, row);
    return out;
  }

  /** Whether a row (or its changes) writes a column: its own value, or for a natural-order key its source's. */
  private writes(model: ResolvedModel, field: ResolvedField, row: Record<string, unknown>): boolean {
    const from = field.naturalize ? model.fieldMap.get(field.naturalize.from)?.column : field.column;
    return (from as string) in row;
  }

  /** The driver parameter of a column `writes` says the row writes. */
  private columnValue(model: ResolvedModel, field: ResolvedField, row: Record<string, unknown>): unknown {
    if (!field.naturalize) return this.encodeValue(field, row[field.column as string]);
    const from = model.fieldMap.get(field.naturalize.from)?.column as string;
    return toNaturalKey(row[from], field.naturalize.style, field.max_length ?? 255);
  }

  /** One in-memory value of a field as a driver parameter (kind codec, then dialect codec). */
  encodeValue(field: ResolvedField, value: unknown): unknown {
    const stored = field.behaviour.encode && value !== null && value !== undefined ? field.behaviour.encode(value) : value;
    return this.dialect.encode(field.behaviour.storage, stored);
  }

  /** `encodeValue` for a column of `model` (text storage when the column is unknown). */
  encodeColumn(model: ResolvedModel, column: string, value: unknown): unknown {
    const field = this.fieldOfColumn(model, column);
    return field ? this.encodeValue(field, value) : this.dialect.encode('text', value);
  }

  /** SQL type of a column, for casts of parameters whose type the database cannot infer (VALUES lists). */
  sqlType(model: ResolvedModel, column: string): string {
    const field = this.fieldOfColumn(model, column);
    return this.dialect.columnType(field ? field.behaviour.storage : 'text');
  }

  /** The stored field of a column (the first, as a search of `model.columns` finds), by a map built once per model. */
  private fieldOfColumn(model: ResolvedModel, column: string): ResolvedField | undefined {
    let fields = this.byColumn.get(model);
    if (!fields) {
      fields = new Map();
      for (const field of model.columns) if (!fields.has(field.column as string)) fields.set(field.column as string, field);
      this.byColumn.set(model, fields);
    }
    return fields.get(column);
  }

  async byIds(exec: Exec, model: ResolvedModel, ids: unknown[]): Promise<Row[]> {
    const unique = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
    const rows: Row[] = [];
    for (const part of chunk(unique)) {
      const text = this.statementText(`byIds ${model.table} ${part.length}`, () => exec.selectFrom(model.table).selectAll().where('id', 'in', part).compile());
      for (const row of await this.readDecoded(exec, model, text, part)) rows.push(row);
    }
    return rows;
  }

  /** Every ancestor of the given rows of a tree (`parent` chain), in one recursive query per chunk. */
  async ancestorsOf(exec: Exec, model: ResolvedModel, ids: string[]): Promise<Row[]> {
    return this.treeChain(exec, model, ids, false);
  }

  /**
   * The given rows of a tree and every ancestor of theirs, in one recursive query per chunk (a
   * loader's read of tree rows, whose display and natural key need the chain). `generation`: the
   * request's, already read (PostgreSQL: the chain is then kept for it, as on SQLite).
   */
  async withAncestors(exec: Exec, model: ResolvedModel, ids: string[], generation?: Promise<string | null>): Promise<Row[]> {
    return this.treeChain(exec, model, ids, true, generation);
  }

  /**
   * `readChain`, kept per write generation of the database (memoByGeneration: the one given, or
   * where reading it is free, SQLite) for reads outside a transaction; each call gets its own
   * copies of the rows. Exact: any write moves the generation, and a new one starts an empty
   * table; rows read after a given generation was read are at least as new as it.
   */
  private async treeChain(exec: Exec, model: ResolvedModel, ids: string[], self: boolean, generation?: Promise<string | null>): Promise<Row[]> {
    if (!model.fieldMap.get('parent')?.column || ids.length === 0) return [];
    if (exec !== this.dialect.db || insideTransaction()) return this.readChain(exec, model, ids, self);
    const unique = [...new Set(ids)];
    const rows = await memoByGeneration(this.dialect, `tree ${self} ${model.table} ${unique.join(' ')}`, () => this.readChain(exec, model, unique, self), generation, TREE_CHAINS);
    return rows.map((row) => ({ ...row }));
  }

  private async readChain(exec: Exec, model: ResolvedModel, ids: string[], self: boolean): Promise<Row[]> {
    const parent = model.fieldMap.get('parent')?.column as string;
    const table = sql.table(model.table);
    const up = sql.ref(`node.${parent}`);
    const start = self ? sql.ref('node.id') : up;
    const node = this.dialect.joinProbe(model.table, 'node', sql`${sql.ref('node.id')} = ${sql.ref('up.id')}`);
    const rows: Row[] = [];
    for (const part of chunk([...new Set(ids)])) {
      const text = this.statementText(`${self ? 'self+ancestors' : 'ancestors'} ${model.table} ${part.length}`, () => sql`
        WITH RECURSIVE up(id) AS (
          SELECT ${start} FROM ${table} AS node WHERE node.id IN (${sql.join(part)}) AND ${start} IS NOT NULL
          UNION
          SELECT ${up} FROM up ${node} WHERE ${up} IS NOT NULL
        )
        SELECT node.* FROM up ${node}`.compile(exec));
      for (const row of await this.readDecoded(exec, model, text, part)) rows.push(row);
    }
    return rows;
  }

  async byId(exec: Exec, model: ResolvedModel, id: string): Promise<Row | undefined> {
    return (await this.byIds(exec, model, [id]))[0];
  }

  /** Rows matching column equalities (null matches IS NULL). */
  async where(exec: Exec, model: ResolvedModel, where: Record<string, unknown>): Promise<Row[]> {
    let query = exec.selectFrom(model.table).selectAll();
    for (const [col, value] of Object.entries(where)) {
      query = value === null ? query.where(col, 'is', null) : query.where(col, '=', this.encodeColumn(model, col, value));
    }
    return (await query.execute()).map((r) => this.decode(model, r));
  }

  /**
   * Multi-row INSERTs, as many rows per statement as the parameter limit allows. Rows with the
   * same columns reuse the statement text of their shape (building it is most of the cost).
   */
  async insert(exec: Exec, model: ResolvedModel, rows: Row[]): Promise<void> {
    for (const part of chunk(rows, rowsPerStatement(model.columns.length))) {
      const values = this.encodeRows(model, part);
      const fields = model.columns.filter((f) => this.writes(model, f, part[0]));
      const cols = fields.map((f) => f.column as string);
      const types = fields.map((f) => this.dialect.columnType(f.behaviour.storage));
      if (values) await exec.executeQuery(insertRows(this, exec, model.table, cols, types, { width: cols.length, count: part.length, values }));
      else await exec.insertInto(model.table).values(part.map((r) => this.encode(model, r))).execute();
    }
  }

  /**
   * The rows' column values, encoded, row after row (as `encode` does, without an object per
   * row); null when the rows do not all set the first row's columns.
   */
  private encodeRows(model: ResolvedModel, rows: Row[]): unknown[] | null {
    const columns = model.columns;
    const sources = this.sourcesOf(model);
    const shape = sources.map((from) => from in rows[0]);
    const params: unknown[] = [];
    for (const row of rows) {
      for (let i = 0; i < columns.length; i += 1) {
        if ((sources[i] in row) !== shape[i]) return null;
        if (shape[i]) params.push(this.columnValue(model, columns[i], row));
      }
    }
    return params;
  }

  /** Per column of the model, the row key whose presence means the column is written (`writes`), worked out once. */
  private sourcesOf(model: ResolvedModel): string[] {
    let sources = this.sources.get(model);
    if (!sources) {
      sources = model.columns.map((field) => (field.naturalize ? model.fieldMap.get(field.naturalize.from)?.column : field.column) as string);
      this.sources.set(model, sources);
    }
    return sources;
  }

  /**
   * The SQL text of a statement shape (table, columns, number of parameters), built by Kysely
   * once and reused: building and compiling the query is most of a small statement's cost.
   * Only shapes whose parameters are exactly the values passed at execution are cached; the
   * cache is emptied when it holds 2000 texts or TEXT_CACHE_CHARS characters (bulk statements
   * run to tens of kilobytes).
   */
  statementText(key: string, build: () => CompiledQuery): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = build().sql;
      if (this.texts.size >= 2000 || this.textChars + text.length > TEXT_CACHE_CHARS) {
        this.texts.clear();
        this.textChars = 0;
      }
      this.texts.set(key, text);
      this.textChars += text.length;
    }
    return text;
  }

  async update(exec: Exec, model: ResolvedModel, id: string, changes: Record<string, unknown>): Promise<void> {
    const values = this.encode(model, changes);
    if (Object.keys(values).length === 0) return;
    await exec.updateTable(model.table).set(values).where('id', '=', id).execute();
  }

  /**
   * Updates many rows, one statement per set of changed columns (and per parameter-limit chunk).
   * A list naming one row twice is applied row by row, in order, so the later change wins.
   */
  async updateMany(exec: Exec, model: ResolvedModel, changes: { id: string; values: Record<string, unknown> }[]): Promise<void> {
    if (new Set(changes.map((c) => c.id)).size !== changes.length) {
      for (const change of changes) await this.update(exec, model, change.id, change.values);
      return;
    }
    const groups = new Map<string, { cols: string[]; rows: { id: string; values: Record<string, unknown> }[] }>();
    for (const change of changes) {
      const values = this.encode(model, change.values);
      const cols = Object.keys(values).sort();
      if (cols.length === 0) continue;
      const group = groups.get(cols.join(',')) ?? { cols, rows: [] };
      group.rows.push({ id: change.id, values });
      groups.set(cols.join(','), group);
    }
    for (const { cols, rows } of groups.values()) {
      if (rows.length === 1) await exec.updateTable(model.table).set(rows[0].values).where('id', '=', rows[0].id).execute();
      else for (const part of chunk(rows, rowsPerStatement(cols.length + 1))) await this.updateRows(exec, model, cols, part);
    }
  }

  /** One statement setting `cols` of many rows, each to its own values. */
  private async updateRows(exec: Exec, model: ResolvedModel, cols: string[], rows: { id: string; values: Record<string, unknown> }[]): Promise<void> {
    const values: unknown[] = [];
    for (const r of rows) {
      values.push(r.id);
      for (const c of cols) values.push(r.values[c]);
    }
    const types = ['id', ...cols].map((c) => this.sqlType(model, c));
    await exec.executeQuery(updateRows(this, exec, model.table, cols, types, { width: cols.length + 1, count: rows.length, values }));
  }

  async deleteIds(exec: Exec, model: ResolvedModel, ids: string[]): Promise<void> {
    for (const part of chunk(ids)) {
      await exec.deleteFrom(model.table).where('id', 'in', part).execute();
      for (const field of model.fields) {
        if (field.behaviour.relation === 'm2m' || field.behaviour.relation === 'content_types') {
          await exec.deleteFrom(joinTable(model, field)).where('source_id', 'in', part).execute();
        }
      }
    }
  }

  /** source id -> linked values (target ids, or content-type labels). */
  async links(exec: Exec, model: ResolvedModel, field: ResolvedField, sourceIds: string[]): Promise<Map<string, string[]>> {
    return (await this.linksMany(exec, model, [field], sourceIds))[0];
  }

  /** `links` of several to-many fields of the model in one statement (UNION ALL): one map per field. */
  async linksMany(exec: Exec, model: ResolvedModel, fields: readonly ResolvedField[], sourceIds: string[]): Promise<Map<string, string[]>[]> {
    const out = fields.map(() => new Map<string, string[]>());
    if (fields.length === 0) return out;
    const tables = linkTables(model, fields);
    for (const part of chunk([...new Set(sourceIds)], Math.max(1, Math.floor(MAX_PARAMS / fields.length)))) {
      const text = this.statementText(`links ${tables.map((t) => t.table).join(',')} ${part.length}`, () => sql`${sql.join(linkSelects(tables, part), sql` UNION ALL `)}`.compile(exec));
      fillLinks(out, await this.dialect.readRows(exec, text, tables.flatMap(() => part)));
    }
    return sortLinks(out, tables);
  }

  /**
   * `linksMany` and `countByMany` over the same ids in one statement (UNION ALL of both, their
   * values as text) where both have work and the ids fit one statement: on PostgreSQL a round
   * trip (and a connection) fewer per page and per detail GET. Otherwise each its own.
   */
  async linksAndCounts(exec: Exec, model: ResolvedModel, fields: readonly ResolvedField[], sources: CountSource[], ids: string[]): Promise<{ links: Map<string, string[]>[]; counts: Map<string, number>[] }> {
    const part = [...new Set(ids)];
    if (fields.length === 0 || sources.length === 0 || part.length === 0 || part.length * (fields.length + sources.length) > MAX_PARAMS) {
      const [links, counts] = await Promise.all([this.linksMany(exec, model, fields, ids), this.countByMany(exec, sources, ids)]);
      return { links, counts };
    }
    const tables = linkTables(model, fields);
    const shape = `${tables.map((t) => t.table).join(',')} ${sources.map((s) => `${s.table}.${s.column}`).join(',')} ${part.length}`;
    const text = this.statementText(`links+counts ${shape}`, () => {
      const selects = [...linkSelects(tables, part), ...countSelects(sources, part, fields.length)];
      return sql`${sql.join(selects, sql` UNION ALL `)}`.compile(exec);
    });
    const rows = await this.dialect.readRows(exec, text, [...tables.flatMap(() => part), ...sources.flatMap(() => part)]);
    const links = fields.map(() => new Map<string, string[]>());
    const counts = sources.map(() => new Map<string, number>());
    fillLinks(links, rows.filter((r) => Number(r.k) < fields.length));
    fillCounts(counts, rows.filter((r) => Number(r.k) >= fields.length), fields.length);
    return { links: sortLinks(links, tables), counts };
  }

  /** Replaces the links of many sources at once (`fresh`: the sources were just created and have none). */
  async setLinks(exec: Exec, model: ResolvedModel, field: ResolvedField, links: Map<string, string[]>, fresh = false): Promise<void> {
    const table = joinTable(model, field);
    const valueCol = field.behaviour.relation === 'content_types' ? 'content_type' : 'target_id';
    const sources = fresh ? [] : [...links.keys()];
    for (const part of chunk(sources)) await exec.deleteFrom(table).where('source_id', 'in', part).execute();
    const pairs: string[] = [];
    for (const [source, targets] of links) for (const target of new Set(targets)) pairs.push(source, target);
    // Types unknown here (the target's id may be an integer): always a VALUES list.
    for (const part of chunk(pairs, 2 * CHUNK)) await exec.executeQuery(insertRows(this, exec, table, ['source_id', valueCol], null, { width: 2, count: part.length / 2, values: part }));
  }

  /** Removes links that point at deleted targets (others' to-many fields). */
  async unlinkTargets(exec: Exec, model: ResolvedModel, field: ResolvedField, targetIds: string[]): Promise<void> {
    for (const part of chunk(targetIds)) await exec.deleteFrom(joinTable(model, field)).where('target_id', 'in', part).execute();
  }

  /**
   * Rows pointing at each of `values`, for several sources (a table and the column holding the
   * value: an FK column, or a join table's `target_id`) in one statement (UNION ALL): one
   * value -> count map per source.
   */
  async countByMany(exec: Exec, sources: CountSource[], values: string[]): Promise<Map<string, number>[]> {
    const out = sources.map(() => new Map<string, number>());
    if (sources.length === 0) return out;
    const shape = sources.map((s) => `${s.table}.${s.column}`).join(',');
    for (const part of chunk([...new Set(values)], Math.max(1, Math.floor(MAX_PARAMS / sources.length)))) {
      const text = this.statementText(`counts ${shape} ${part.length}`, () => sql`${sql.join(countSelects(sources, part, 0), sql` UNION ALL `)}`.compile(exec));
      fillCounts(out, await this.dialect.readRows(exec, text, sources.flatMap(() => part)), 0);
    }
    return out;
  }
}

/** The join table of each to-many field and the column of its values (target ids, or content-type labels). */
function linkTables(model: ResolvedModel, fields: readonly ResolvedField[]): { table: string; value: string }[] {
  return fields.map((field) => ({ table: joinTable(model, field), value: field.behaviour.relation === 'content_types' ? 'content_type' : 'target_id' }));
}

/**
 * One SELECT per join table, `k` its index: (k, source_id, value, n null). Every id and value as
 * text (target ids may be UUIDs or integers, content types are labels), in the shape
 * `countSelects` shares, so both can stand in one UNION ALL.
 */
function linkSelects(tables: { table: string; value: string }[], part: string[]) {
  return tables.map(({ table, value }, k) => sql`SELECT ${sql.lit(k)} AS k, CAST(${sql.ref('source_id')} AS text) AS source_id, CAST(${sql.ref(value)} AS text) AS value, CAST(NULL AS bigint) AS n FROM ${sql.table(table)} WHERE ${sql.ref('source_id')} IN (${sql.join(part)})`);
}

/** One SELECT per count source, `k` its index plus `first`: (k, source_id null, the counted value as text, n). */
function countSelects(sources: CountSource[], part: string[], first: number) {
  return sources.map(({ table, column }, i) => sql`SELECT ${sql.lit(first + i)} AS k, NULL AS source_id, CAST(${sql.ref(column)} AS text) AS value, count(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} IN (${sql.join(part)}) GROUP BY ${sql.ref(column)}`);
}

/** Link rows into their field's map (source id -> values). */
function fillLinks(out: Map<string, string[]>[], rows: Record<string, unknown>[]): void {
  for (const r of rows) {
    // Integer ids come back as numbers; rows carry every id as text.
    const map = out[Number(r.k)];
    const list = map.get(String(r.source_id)) ?? [];
    list.push(String(r.value));
    map.set(String(r.source_id), list);
  }
}

/** Count rows into their source's map (value -> count); `first`: the k of the first source. */
function fillCounts(out: Map<string, number>[], rows: Record<string, unknown>[], first: number): void {
  for (const r of rows) out[Number(r.k) - first].set(String(r.value), Number(r.n));
}

/** Content types in the reference's id order (its lists follow its ids), other links by id. */
function sortLinks(out: Map<string, string[]>[], tables: { value: string }[]): Map<string, string[]>[] {
  out.forEach((map, i) => {
    const order = tables[i].value === 'content_type' ? compareContentTypes : undefined;
    for (const list of map.values()) list.sort(order);
  });
  return out;
}
