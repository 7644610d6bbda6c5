import { AppError, ValidationError } from '../../core/errors.js';
import { createObjects } from '../../ops/crud.js';
import { listRows } from '../../ops/read.js';
import { serialize } from '../../ops/serialize/index.js';
import { buildCsvPlan, rowsToCsv } from '../../ops/csv/export.js';
import { parseCsvBody } from '../../ops/csv/import.js';
import { renderTemplate } from '../../apps/extras/computed-fields/template-engine.js';
import { templateObjects } from '../../apps/extras/computed-fields/template-context.js';
import { RunJobTaskFailed, modelOf, requireModelPermission } from './bulk-actions.js';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { Params } from '../../ops/filters/apply.js';
import type { SystemContext, SystemJob } from './types.js';

/** Query-string parameters of the web interface's list views that are not filters (the reference's list). */
const NON_FILTER_PARAMS = new Set(['all_filters_removed', 'export', 'page', 'per_page', 'saved_view', 'sort', 'table_changes_pending', 'limit', 'offset', 'depth']);

function filterParams(queryString: string): Params {
  const params: Params = new Map();
  for (const [key, value] of new URLSearchParams(queryString)) if (!NON_FILTER_PARAMS.has(key)) params.set(key, [...(params.get(key) ?? []), value]);
  return params;
}

/** The rows an export covers (the user's view permission applies); an invalid filter fails the run. */
async function exportRows(ctx: SystemContext, model: ResolvedModel, queryString: string) {
  try {
    return (await listRows(ctx.system.services, ctx.system.rc, model, { params: filterParams(queryString), limit: null, offset: 0 })).rows;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    await ctx.logger.error(`Invalid filters were specified: ${JSON.stringify(err.body)}`);
    throw new RunJobTaskFailed('Invalid query_string value for this content_type');
  }
}

async function renderExportTemplate(ctx: SystemContext, model: ResolvedModel, template: Record<string, unknown>, queryString: string): Promise<{ text: string; extension: string }> {
  const { services } = ctx.system;
  const ct = template.content_type as string | undefined;
  if (ct !== model.id) {
    await ctx.logger.error(`ExportTemplate ${String(template.display)} doesn't apply to ${model.id}`);
    throw new RunJobTaskFailed('ExportTemplate ContentType mismatch');
  }
  const rows = await exportRows(ctx, model, queryString);
  await ctx.logger.info(`Exporting ${rows.length} objects via ExportTemplate. This may take some time.`, { object: template as { display?: string } });
  const objects = await templateObjects(services, services.dialect.db, model, rows);
  const text = renderTemplate(String(template.template_code ?? ''), { queryset: rows.map((r) => objects.get(r.id)) });
  return { text, extension: template.file_extension ? `.${String(template.file_extension)}` : '' };
}

export const ExportObjectList: SystemJob = {
  meta: { name: 'Export Object List', description: 'Export a list of objects to CSV or YAML, or render a specified Export Template.', has_sensitive_variables: false, soft_time_limit: 1800, time_limit: 2000 },
  variables: {
    content_type: { type: 'ObjectVar', model: 'contenttypes.contenttype', description: 'Type of objects to export', label: 'Content Type' },
    query_string: { type: 'StringVar', description: 'Filterset parameters to apply, in URL query parameter format e.g. "name=test&status=Active"', label: 'Filterset Parameters', default: '', required: false },
    export_format: { type: 'ChoiceVar', choices: [['csv', 'CSV'], ['yaml', 'YAML']], description: 'Format to export to if not using an Export Template<br>(note, in core only <code>dcim | device type</code> supports YAML export at present)', default: 'csv', required: false },
    export_template: { type: 'ObjectVar', model: 'extras.exporttemplate', description: 'Export Template to use (if unspecified, will export to CSV/YAML as specified above)', label: 'Export Template', required: false },
  },
  /** CSV as the API's `?format=csv` (YAML is not offered: no model here has the reference's device-type YAML), or an export template's rendering, into a file proxy. */
  async run(ctx, data) {
    const model = modelOf(ctx, data.content_type);
    await requireModelPermission(ctx, model, 'view', 'view');
    const queryString = String(data.query_string ?? '');
    const filename = `nautobot_${model.verbose_name_plural.toLowerCase().replace(/ /g, '_')}`;
    if (data.export_template) {
      const { text, extension } = await renderExportTemplate(ctx, model, data.export_template as Record<string, unknown>, queryString);
      await ctx.createFile(filename + extension, text);
      return null;
    }
    if (data.export_format === 'yaml') {
      await ctx.logger.error(`Model ${model.model} doesn't support YAML export`);
      throw new Error('YAML export not supported for this content-type');
    }
    const rows = await exportRows(ctx, model, queryString);
    await ctx.logger.info(`Exporting ${rows.length} objects to CSV. This may take some time.`);
    const plan = await buildCsvPlan(ctx.system.services, model, { baseUrl: ctx.system.rc.baseUrl });
    // A UTF-8 byte order mark first, as the reference writes it (spreadsheets then read non-ASCII text right).
    await ctx.createFile(`${filename}.csv`, `\ufeff${await rowsToCsv(plan, rows)}`);
    return null;
  },
};

/** Per-row API errors as the reference logs them: ``Row N: `field`: `message` ``. */
async function logRowErrors(ctx: SystemContext, row: number, body: unknown): Promise<void> {
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.entries(body as Record<string, unknown>) : [['non_field_errors', body]];
  for (const [field, errors] of fields) for (const err of Array.isArray(errors) ? errors : [errors]) await ctx.logger.error(`Row ${row}: \`${field}\`: \`${typeof err === 'string' ? err : JSON.stringify(err)}\``);
}

/** Creates the rows in one transaction; on any error logs each row's and creates nothing. */
async function importAtomically(ctx: SystemContext, model: ResolvedModel, items: Record<string, unknown>[]): Promise<number | null> {
  try {
    const rows = await createObjects(ctx.system.services, ctx.system.rc, model, items);
    await logCreated(ctx, model, rows, 1);
    return rows.length;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const perRow = Array.isArray(err.body) ? err.body : [err.body];
    for (const [i, body] of perRow.entries()) if (body && Object.keys(body as object).length > 0) await logRowErrors(ctx, Array.isArray(err.body) ? i + 1 : 1, body);
    await ctx.logger.warning(`Rolling back all ${items.length} records.`);
    return null;
  }
}

async function logCreated(ctx: SystemContext, model: ResolvedModel, rows: { id: string }[], firstRow: number): Promise<void> {
  const { services, rc } = ctx.system;
  const objects = await serialize(services, services.dialect.db, model, rows as never, { depth: 0, baseUrl: rc.baseUrl }) as { display?: string; url?: string }[];
  for (const [i, object] of objects.entries()) await ctx.logger.info(`Row ${firstRow + i}: Created record "${object.display}"`, { object });
}

/** Creates each row in its own transaction, logging failures and going on. */
async function importEach(ctx: SystemContext, model: ResolvedModel, items: Record<string, unknown>[]): Promise<{ created: number; failed: boolean }> {
  let created = 0;
  let failed = false;
  for (const [i, item] of items.entries()) {
    try {
      await logCreated(ctx, model, await createObjects(ctx.system.services, ctx.system.rc, model, item), i + 1);
      created += 1;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      failed = true;
      await logRowErrors(ctx, i + 1, err.body);
    }
  }
  return { created, failed };
}

export const ImportObjects: SystemJob = {
  meta: { name: 'Import Objects', description: 'Import objects from CSV-formatted data.', has_sensitive_variables: false, soft_time_limit: 1800, time_limit: 2000 },
  variables: {
    content_type: { type: 'ObjectVar', model: 'contenttypes.contenttype', description: 'Type of objects to import' },
    csv_data: { type: 'TextVar', label: 'CSV Data', required: false },
    csv_file: { type: 'FileVar', label: 'CSV File', required: false },
    roll_back_if_error: { type: 'BooleanVar', label: 'Rollback Changes on Failure', required: false, default: true, description: 'If an error is encountered when processing any row of data, rollback the entire import such that no data is imported.' },
  },
  /** The API's CSV import (same columns and validation), row by row or all-or-none. */
  async run(ctx, data) {
    const model = modelOf(ctx, data.content_type);
    await requireModelPermission(ctx, model, 'add', 'create');
    const file = data.csv_file as { content?: string } | null;
    const text = file?.content ?? (data.csv_data ? String(data.csv_data) : '');
    if (!text) throw new RunJobTaskFailed('Either csv_data or csv_file must be provided');
    let items: Record<string, unknown>[];
    try {
      items = parseCsvBody(model, text, ctx.system.services.config.limits.csvRows);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await ctx.logger.error(`\`${String((err.body as { detail?: string }).detail ?? JSON.stringify(err.body))}\``);
      throw new RunJobTaskFailed('CSV import not successful, all imports were rolled back, see logs');
    }
    await ctx.logger.info(`Processing ${items.length} rows of data`);
    const atomic = data.roll_back_if_error === true;
    const outcome = atomic ? { created: await importAtomically(ctx, model, items), failed: false } : await importEach(ctx, model, items);
    const failed = atomic ? outcome.created === null : outcome.failed;
    if (outcome.created) await ctx.logger.info(`Created ${outcome.created} ${model.model} object(s) from ${items.length} row(s) of data`);
    else await ctx.logger.warning(`No ${model.model} objects were created`);
    if (failed) throw new RunJobTaskFailed(atomic ? 'CSV import not successful, all imports were rolled back, see logs' : 'CSV import not fully successful, see logs');
    return null;
  },
};
