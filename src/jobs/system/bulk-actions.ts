import { bulkDelete, bulkUpdate } from '../../ops/crud.js';
import { hasModelPermission } from '../../ops/permissions.js';
import { listRows } from '../../ops/read.js';
import { serialize } from '../../ops/serialize/index.js';
import { AppError } from '../../core/errors.js';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { Params } from '../../ops/filters/apply.js';
import type { SystemContext, SystemJob } from './types.js';

/** A job failure whose message the result shows (the reference's RunJobTaskFailed). */
export class RunJobTaskFailed extends Error {
  name = 'RunJobTaskFailed';
}

/** The model a content type variable names (the API object of a content type). */
export function modelOf(ctx: SystemContext, contentType: unknown): ResolvedModel {
  const ct = contentType as { app_label?: string; model?: string };
  const model = ctx.system.services.registry.find(`${ct.app_label}.${ct.model}`);
  if (!model) throw new RunJobTaskFailed('Model not found');
  return model;
}

/** Fails the run unless the user holds `action` on the model (the reference checks `has_perm` first). */
export async function requireModelPermission(ctx: SystemContext, model: ResolvedModel, action: 'view' | 'add' | 'change' | 'delete', verb: string): Promise<void> {
  const actor = ctx.system.rc.actor;
  if (!actor || hasModelPermission(ctx.system.services, actor, action, model.id)) return;
  await ctx.logger.error(`User "${actor.username}" does not have permission to ${verb} ${model.model} objects`);
  throw new RunJobTaskFailed(`User does not have ${action === 'add' ? 'create' : action === 'change' ? 'change' : action} permissions on the requested content-type`);
}

/** Filter parameters as the list filters take them (`{status: ['active']}`). */
export function toParams(filters: unknown): Params {
  const params: Params = new Map();
  if (!filters || typeof filters !== 'object') return params;
  for (const [key, value] of Object.entries(filters as Record<string, unknown>)) params.set(key, (Array.isArray(value) ? value : [value]).map(String));
  return params;
}

/** The ids a bulk action applies to: the listed ones, or every object its filters match. */
async function targetIds(ctx: SystemContext, model: ResolvedModel, data: Record<string, unknown>, allKey: string): Promise<string[]> {
  if (!data[allKey]) return Array.isArray(data.pk_list) ? data.pk_list.map(String) : [];
  const { rows } = await listRows(ctx.system.services, ctx.system.rc, model, { params: toParams(data.filter_query_params), limit: null, offset: 0 });
  return rows.map((r) => String(r.id));
}

/** A bulk action's selection: the model of `content_type`, the user's permission on it (checked first), and the ids it applies to. */
async function selectTargets(ctx: SystemContext, data: Record<string, unknown>, how: { action: 'change' | 'delete'; verb: string; allKey: string }): Promise<{ model: ResolvedModel; ids: string[] }> {
  const model = modelOf(ctx, data.content_type);
  await requireModelPermission(ctx, model, how.action, how.verb);
  return { model, ids: await targetIds(ctx, model, data, how.allKey) };
}

/** An API error as log lines, then a failure. */
async function failWith(ctx: SystemContext, err: unknown, summary: string): Promise<never> {
  if (err instanceof AppError) await ctx.logger.error(JSON.stringify(err.body));
  else throw err;
  throw new RunJobTaskFailed(summary);
}

/** The tag ids each object will have after `add_tags` / `remove_tags`. */
async function editedTags(ctx: SystemContext, model: ResolvedModel, ids: string[], form: Record<string, unknown>): Promise<Map<string, string[]>> {
  const { services, rc } = ctx.system;
  const { rows } = await listRows(services, rc, model, { params: new Map([['id', ids]]), limit: null, offset: 0 });
  const objects = await serialize(services, services.dialect.db, model, rows, { depth: 0, baseUrl: rc.baseUrl }) as { id: string; tags?: { id: string }[] }[];
  const add = (Array.isArray(form.add_tags) ? form.add_tags : []).map(String);
  const remove = new Set((Array.isArray(form.remove_tags) ? form.remove_tags : []).map(String));
  return new Map(objects.map((o) => [o.id, [...new Set([...(o.tags ?? []).map((t) => t.id), ...add])].filter((t) => !remove.has(t))]));
}

export const BulkEditObjects: SystemJob = {
  meta: { name: 'Bulk Edit Objects', description: 'Bulk edit objects.', has_sensitive_variables: false, soft_time_limit: 1800, time_limit: 2000, hidden: true },
  variables: {
    content_type: { type: 'ObjectVar', model: 'contenttypes.contenttype', description: 'Type of objects to update' },
    form_data: { type: 'JSONVar', description: 'BulkEditForm data' },
    pk_list: { type: 'JSONVar', description: 'List of objects pks to edit', required: false },
    edit_all: { type: 'BooleanVar', description: 'Bulk Edit all object / all filtered objects', required: false },
    filter_query_params: { type: 'JSONVar', label: 'Filter Query Params', required: false },
    saved_view_id: { type: 'ObjectVar', model: 'extras.savedview', required: false },
  },
  /** `form_data`: field values as the API takes them, `_nullify` (fields to empty), `add_tags` / `remove_tags`; all objects or none. */
  async run(ctx, data) {
    const { model, ids } = await selectTargets(ctx, data, { action: 'change', verb: 'update', allKey: 'edit_all' });
    const { _nullify: nullify, add_tags: addTags, remove_tags: removeTags, ...fields } = (data.form_data ?? {}) as Record<string, unknown>;
    // As the reference: a nullified field becomes null where it may, else empty.
    for (const name of Array.isArray(nullify) ? nullify.map(String) : []) fields[name] = model.fieldMap.get(name)?.nullable === false ? '' : null;
    const tags = addTags || removeTags ? await editedTags(ctx, model, ids, { add_tags: addTags, remove_tags: removeTags }) : null;
    await ctx.logger.debug(`Performing update on ${ids.length} ${model.verbose_name_plural}`);
    const items = ids.map((id) => ({ id, ...fields, ...(tags?.has(id) ? { tags: tags.get(id) } : {}) }));
    const updated = await bulkUpdate(ctx.system.services, ctx.system.rc, model, items, new Map(), true).catch((err) => failWith(ctx, err, 'Bulk Edit not fully successful, see logs'));
    const message = `Updated ${updated.length} ${model.verbose_name_plural}`;
    await ctx.logger.info(message);
    return message;
  },
};

export const BulkDeleteObjects: SystemJob = {
  meta: { name: 'Bulk Delete Objects', description: 'Bulk delete objects.', has_sensitive_variables: false, soft_time_limit: 1800, time_limit: 2000, hidden: true },
  variables: {
    content_type: { type: 'ObjectVar', model: 'contenttypes.contenttype', description: 'Type of objects to delete' },
    pk_list: { type: 'JSONVar', description: 'List of objects pks to delete', required: false },
    delete_all: { type: 'BooleanVar', description: 'Delete all (filtered) objects instead of a list of PKs', required: false },
    filter_query_params: { type: 'JSONVar', label: 'Filter Query Params', required: false },
    saved_view_id: { type: 'ObjectVar', model: 'extras.savedview', required: false },
  },
  /** All objects or none: a protected object (409 in the API) fails the run and deletes nothing. */
  async run(ctx, data) {
    const { model, ids } = await selectTargets(ctx, data, { action: 'delete', verb: 'delete', allKey: 'delete_all' });
    await ctx.logger.info(`Deleting ${ids.length} ${model.verbose_name_plural}...`);
    await bulkDelete(ctx.system.services, ctx.system.rc, model, ids.map((id) => ({ id })), new Map()).catch(async (err) => {
      if (err instanceof AppError && err.status === 409) {
        await ctx.logger.error(`Caught ProtectedError while attempting to delete objects: \`${JSON.stringify(err.body)}\``);
        throw new RunJobTaskFailed('Caught ProtectedError while attempting to delete objects');
      }
      return failWith(ctx, err, 'Bulk Delete not successful, see logs');
    });
    const message = `Deleted ${ids.length} ${model.verbose_name_plural}`;
    await ctx.logger.info(message);
    return message;
  },
};
