import { createHash } from 'node:crypto';
import { SEQUENCE_TABLE } from './id-sequences.js';
import { SNAPSHOT_PARTS_TABLE } from './snapshot-parts.js';
import { orderingField } from '../../core/registry/resolve.js';
import type { Dialect } from '../dialects/dialect.js';
import type { Registry } from '../../core/registry/registry.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { Storage } from '../../core/fields/kind.js';

/** One table the registry needs: columns and indexes, dialect-neutral. */
export type TableSpec = {
  name: string;
  columns: { name: string; storage: Storage; primary?: boolean; notNull?: boolean }[];
  primaryKey?: string[];
  indexes: { columns: string[]; unique: boolean }[];
};

/** Join table name of a to-many field. */
export function joinTable(model: ResolvedModel, field: ResolvedField): string {
  return `${model.table}__${field.name}`;
}

function indexColumn(model: ResolvedModel, name: string): string | undefined {
  return model.fieldMap.get(name)?.column ?? undefined;
}

/** The indexes of a model's table besides its primary key: declared, unique and FK columns, natural keys and unique sets, default order. */
export function modelIndexes(model: ResolvedModel): TableSpec['indexes'] {
  const indexes: TableSpec['indexes'] = model.indexes.map((names) => ({ columns: names.map((n) => indexColumn(model, n) as string), unique: false }));
  for (const field of model.columns) {
    if (field.name === 'id') continue;
    if (field.unique) indexes.push({ columns: [field.column as string], unique: true });
    else if (field.kind === 'fk' || field.kind === 'content_type') indexes.push({ columns: [field.column as string], unique: false });
  }
  for (const set of [model.natural_key, ...model.unique_together]) {
    const cols = set.map((n) => indexColumn(model, n)).filter((c): c is string => !!c);
    if (cols.length > 0 && cols.length === set.length && !(cols.length === 1 && model.fieldMap.get(set[0])?.unique)) {
      indexes.push({ columns: cols, unique: false });
    }
  }
  // The default order (then the `id` tiebreaker) is served by one index, so a page is an index
  // walk with LIMIT instead of a sort of the whole table: an order of the table's own columns, or
  // one led by an FK and then its own columns, read a target at a time (db/query/page.ts).
  const fields = model.ordering.map((n) => ({ field: model.fieldMap.get(orderingField(n)), own: n.endsWith('__id') }));
  const isOwn = ({ field, own }: (typeof fields)[number]) => !!field?.column && (field.kind !== 'fk' || own);
  if (fields.length > 0 && fields.every((f, i) => isOwn(f) || (i === 0 && f.field?.column))) {
    indexes.push({ columns: [...fields.map(({ field }) => field?.column as string), 'id'], unique: false });
  }
  return indexes;
}

function modelTable(model: ResolvedModel): TableSpec {
  const columns = model.columns.map((f) => ({ name: f.column as string, storage: f.behaviour.storage, primary: f.name === 'id' }));
  return { name: model.table, columns, indexes: modelIndexes(model) };
}

/** Column storage of a model's ids (UUID, or integer for `id_type: 'integer'`). */
export function idStorage(model: ResolvedModel): Storage {
  return model.fieldMap.get('id')?.behaviour.storage ?? 'uuid';
}

function joinTables(registry: Registry, model: ResolvedModel): TableSpec[] {
  const specs: TableSpec[] = [];
  for (const field of model.fields) {
    if (field.behaviour.relation === 'm2m') {
      const target = registry.get(field.to as string);
      specs.push({
        name: joinTable(model, field),
        columns: [{ name: 'source_id', storage: idStorage(model), notNull: true }, { name: 'target_id', storage: idStorage(target), notNull: true }],
        primaryKey: ['source_id', 'target_id'],
        indexes: [{ columns: ['target_id'], unique: false }],
      });
    } else if (field.behaviour.relation === 'content_types') {
      specs.push({
        name: joinTable(model, field),
        columns: [{ name: 'source_id', storage: idStorage(model), notNull: true }, { name: 'content_type', storage: 'text', notNull: true }],
        primaryKey: ['source_id', 'content_type'],
        indexes: [{ columns: ['content_type'], unique: false }],
      });
    }
  }
  return specs;
}

/** Every table the registry needs. */
export function buildTableSpecs(registry: Registry): TableSpec[] {
  const sequences = registry.models.some((m) => m.id_type === 'integer') ? [SEQUENCE_TABLE] : [];
  const snapshotParts = registry.find('extras.objectchange') ? [SNAPSHOT_PARTS_TABLE] : [];
  return [...registry.models.flatMap((m) => [modelTable(m), ...joinTables(registry, m)]), ...sequences, ...snapshotParts];
}

export function indexName(table: string, columns: string[], unique: boolean): string {
  const name = `${unique ? 'ux' : 'ix'}_${table}_${columns.join('_')}`;
  return name.length <= 60 ? name : `${name.slice(0, 48)}_${createHash('sha1').update(name).digest('hex').slice(0, 10)}`;
}

function columnSql(dialect: Dialect, col: TableSpec['columns'][number]): string {
  const parts = [`"${col.name}"`, dialect.columnType(col.storage)];
  if (col.primary) parts.push('PRIMARY KEY');
  else if (col.notNull) parts.push('NOT NULL');
  return parts.join(' ');
}

/** CREATE TABLE statement for a spec. */
export function createTableSql(dialect: Dialect, spec: TableSpec): string {
  const defs = spec.columns.map((c) => columnSql(dialect, c));
  if (spec.primaryKey) defs.push(`PRIMARY KEY (${spec.primaryKey.map((c) => `"${c}"`).join(', ')})`);
  return `CREATE TABLE IF NOT EXISTS "${spec.name}" (${defs.join(', ')})`;
}

export function addColumnSql(dialect: Dialect, table: string, col: TableSpec['columns'][number]): string {
  return `ALTER TABLE "${table}" ADD COLUMN ${columnSql(dialect, { ...col, primary: false, notNull: false })}`;
}

export function createIndexSql(table: string, index: TableSpec['indexes'][number]): string {
  const cols = index.columns.map((c) => `"${c}"`).join(', ');
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${indexName(table, index.columns, index.unique)}" ON "${table}" (${cols})`;
}
