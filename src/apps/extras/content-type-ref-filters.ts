import { joinTable } from '../../db/schema/build-schema.js';
import { FALSE, TRUE, col, not, or } from '../../db/query/sql-helpers.js';
import { FilterError } from '../../ops/filters/resolve-values.js';
import { CONTENT_TYPE_MODEL } from '../../db/content-types.js';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { ResolvedField } from '../../core/registry/types.js';
import type { AppExtensions } from '../../ops/extensions.js';
import type { FilterContext, FilterDef } from '../../ops/filters/filter-set.js';

/**
 * The reference's ContentTypeFilter fields: one value (the last), either `app_label.model` in any
 * case or a content type id (digits). A value of neither form matches nothing, even under `__n`.
 */
const BY_LABEL_OR_ID: Record<string, string[]> = {
  'extras.computedfield': ['content_type'],
  'extras.configcontext': ['owner_content_type'],
  'extras.configcontextschema': ['owner_content_type'],
  'extras.contactassociation': ['associated_object_type'],
  'extras.customlink': ['content_type'],
  'extras.exporttemplate': ['owner_content_type', 'content_type'],
  'extras.imageattachment': ['content_type'],
  'extras.jobbutton': ['content_types'],
  'extras.note': ['assigned_object_type'],
  'extras.objectchange': ['changed_object_type'],
};

/**
 * Content type FKs the reference also filters as `<field>_id` (its Meta.fields): one content
 * type id (the last value), a ModelChoiceFilter.
 */
const BY_ID: Record<string, string[]> = {
  'extras.imageattachment': ['content_type'],
  'extras.note': ['assigned_object_type'],
  'extras.objectchange': ['changed_object_type'],
};

const NO_CHOICE = 'Select a valid choice. That choice is not one of the available choices.';

/** `app_label.model` of the content type with this id, or undefined when there is none. */
async function labelOfId(ctx: FilterContext, id: number): Promise<string | undefined> {
  const table = ctx.services.registry.get(CONTENT_TYPE_MODEL).table;
  const row = Number.isSafeInteger(id) ? await ctx.exec.selectFrom(table).select(['app_label', 'model']).where('id', '=', id).executeTakeFirst() : undefined;
  return row ? `${String(row.app_label)}.${String(row.model)}` : undefined;
}

/** Rows whose field names the content type `label`: the column, or a link of a to-many field. */
function naming(ctx: FilterContext, field: ResolvedField, label: string): Clause {
  const { table } = ctx.model;
  if (field.column) return (eb) => eb(col(table, field.column as string), '=', label);
  return (eb) => eb(col(table, 'id'), 'in', eb.selectFrom(joinTable(ctx.model, field)).select('source_id').where('content_type', '=', label));
}

/** Rows whose field does not name `label` (a null field included, as Django's exclude). */
function notNaming(ctx: FilterContext, field: ResolvedField, label: string): Clause {
  const clause = not(naming(ctx, field, label));
  return field.column && field.nullable ? or([clause, (eb) => eb(col(ctx.model.table, field.column as string), 'is', null)]) : clause;
}

function labelOrIdFilter(name: string): FilterDef {
  return {
    lookups: new Set(['n']),
    async build(ctx, lookup, values) {
      const field = ctx.model.fieldMap.get(name) as ResolvedField;
      const value = (values[values.length - 1] ?? '').trim();
      if (value === '') return TRUE;
      const parts = value.toLowerCase().split('.');
      const label = /^\d+$/.test(value) ? await labelOfId(ctx, Number(value)) : parts.length === 2 ? parts.join('.') : null;
      if (label === null) return FALSE;
      if (label === undefined) return lookup === 'n' ? TRUE : FALSE;
      return lookup === 'n' ? notNaming(ctx, field, label) : naming(ctx, field, label);
    },
  };
}

function idFilter(name: string): FilterDef {
  return {
    lookups: new Set(['n']),
    schema: { type: 'integer' },
    async build(ctx, lookup, values) {
      const field = ctx.model.fieldMap.get(name) as ResolvedField;
      const value = (values[values.length - 1] ?? '').trim();
      if (value === '') return TRUE;
      const label = /^[+-]?\d+$/.test(value) ? await labelOfId(ctx, Number(value)) : undefined;
      if (label === undefined) throw new FilterError(NO_CHOICE);
      return lookup === 'n' ? notNaming(ctx, field, label) : naming(ctx, field, label);
    },
  };
}

function buildTable(): AppExtensions {
  const table: AppExtensions = {};
  for (const modelId of new Set([...Object.keys(BY_LABEL_OR_ID), ...Object.keys(BY_ID)])) {
    const byLabel = (BY_LABEL_OR_ID[modelId] ?? []).map((name) => [name, labelOrIdFilter(name)] as const);
    const byId = (BY_ID[modelId] ?? []).map((name) => [`${name}_id`, idFilter(name)] as const);
    table[modelId] = { filters: Object.fromEntries([...byLabel, ...byId]) };
  }
  return table;
}

/** Filters naming content types as the reference's do: by `app_label.model` or by content type id. */
export const contentTypeRefFiltersTable: AppExtensions = buildTable();
