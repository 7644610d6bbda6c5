import { PermissionDeniedError, ValidationError } from '../../core/errors.js';
import { toIsoMicro } from '../../core/fields/scalar.js';
import { and } from '../../db/query/sql-helpers.js';
import { chunk } from '../../db/store.js';
import { extensionsFor } from '../extensions.js';
import { keepLoaded } from '../serialize/preloaded.js';
import { constraintClause } from '../permissions.js';
import { fillImageSizes } from '../media/image-sizes.js';
import { imageFields } from '../../core/registry/image-fields.js';
import { buildItem } from './build-item.js';
import { CachingResolver } from './caching-resolver.js';
import { recordChanges } from './changelog.js';
import { runChecks } from './checks.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Action } from '../permissions.js';
import type { RequestContext, Services } from '../services.js';
import type { ItemPlan } from './build-item.js';

/** One object to write: its input and, for updates, its stored row. */
export type WriteItem = { input: Record<string, unknown>; before?: Row };

/** Parses every item, resolving FK UUIDs in bulk first. */
async function planItems(services: Services, exec: Exec, rc: RequestContext, model: ResolvedModel, items: WriteItem[], partial: boolean): Promise<ItemPlan[]> {
  const resolver = new CachingResolver(services, exec, rc, model);
  for (const field of model.fields) {
    if (field.read_only || field.hidden || !field.to) continue;
    if (field.kind === 'fk') await resolver.prefetch(field, items.map((i) => i.input[field.name]));
    if (field.kind === 'm2m') await resolver.prefetch(field, items.flatMap((i) => (Array.isArray(i.input[field.name]) ? (i.input[field.name] as unknown[]) : [])));
  }
  const plans: ItemPlan[] = [];
  const ctx = { services, model, resolver };
  const images = imageFields(model).length > 0;
  for (const item of items) {
    const built = buildItem(ctx, item.input, { before: item.before, partial });
    const plan = built instanceof Promise ? await built : built;
    if (model.before_save && Object.keys(plan.errors).length === 0) {
      await model.before_save({ row: plan.row, before: item.before, input: item.input, userId: rc.actor?.id ?? null, username: rc.actor?.username ?? null });
    }
    if (images && Object.keys(plan.errors).length === 0) await fillImageSizes(services.config.mediaRoot, model, plan.row, item.before);
    plans.push(plan);
  }
  return plans;
}

/** Errors as the reference shapes them: a list aligned with a list input, else one dict. */
function throwErrors(plans: ItemPlan[], asList: boolean): void {
  if (!plans.some((p) => Object.keys(p.errors).length > 0)) return;
  if (asList) throw new ValidationError(plans.map((p) => p.errors));
  throw new ValidationError(plans.find((p) => Object.keys(p.errors).length > 0)!.errors);
}

/** Each to-many field's new links by row id, for created rows (`fresh`) and for updated ones, in one walk of the plans. */
function linksByField(plans: ItemPlan[]): Map<string, { fresh: Map<string, string[]>; kept: Map<string, string[]> }> {
  const out = new Map<string, { fresh: Map<string, string[]>; kept: Map<string, string[]> }>();
  for (const plan of plans) {
    for (const [name, ids] of plan.links) {
      let entry = out.get(name);
      if (!entry) out.set(name, (entry = { fresh: new Map(), kept: new Map() }));
      (plan.before ? entry.kept : entry.fresh).set(plan.row.id as string, ids);
    }
  }
  return out;
}

async function writeRows(services: Services, exec: Exec, model: ResolvedModel, plans: ItemPlan[]): Promise<void> {
  const now = toIsoMicro(new Date());
  const timestamps = model.fieldMap.has('last_updated');
  const stampCreated = timestamps || !!model.fieldMap.get('created')?.column;
  const created: Row[] = [];
  for (const plan of plans) {
    if (plan.before) continue;
    const row = { ...plan.row };
    if (stampCreated) row.created = now;
    if (timestamps) row.last_updated = now;
    created.push(row);
  }
  await services.store.insert(exec, model, created);
  const updates = plans.filter((p) => p.before).map((plan) => {
    const values: Record<string, unknown> = timestamps ? { last_updated: now } : {};
    for (const field of model.columns) {
      const c = field.column as string;
      if (c !== 'id' && plan.row[c] !== plan.before![c]) values[c] = plan.row[c];
    }
    return { id: plan.row.id, values };
  });
  await services.store.updateMany(exec, model, updates);
  const links = linksByField(plans);
  for (const field of model.fields) {
    const entry = links.get(field.name);
    if (entry?.fresh.size) await services.store.setLinks(exec, model, field, entry.fresh, true);
    if (entry?.kept.size) await services.store.setLinks(exec, model, field, entry.kept, false);
  }
}

/** After the write the objects must still fall within the actor's constraints, else 403 (rolled back). */
async function checkScope(services: Services, exec: Exec, rc: RequestContext, model: ResolvedModel, action: Action, ids: string[]): Promise<void> {
  const clause = rc.actor ? constraintClause(services, rc.actor, action, model) : null;
  if (!clause) return;
  let inScope = 0;
  for (const part of chunk(ids)) {
    const rows = await exec.selectFrom(model.table).select(`${model.table}.id`).where(and([clause, (eb) => eb(`${model.table}.id`, 'in', part)])).execute();
    inScope += rows.length;
  }
  if (inScope !== new Set(ids).size) throw new PermissionDeniedError();
}

/**
 * Validates and writes items of one model inside the caller's transaction: parse, hooks,
 * uniqueness and rules, rows and links, scope check, change log. Returns the stored rows, marked
 * with what the change log loaded for them (reused by the response's rendering).
 */
export async function persist(services: Services, exec: Exec, rc: RequestContext, model: ResolvedModel, items: WriteItem[], opts: { partial: boolean; asList: boolean }): Promise<Row[]> {
  const plans = await planItems(services, exec, rc, model, items, opts.partial);
  const hookCtx = { services, exec, rc, model, plans, partial: opts.partial };
  for (const ext of extensionsFor(services, model)) await ext.parseInput?.(hookCtx);
  throwErrors(plans, opts.asList);
  await runChecks(services, exec, rc, model, plans);
  throwErrors(plans, opts.asList);
  await writeRows(services, exec, model, plans);
  for (const ext of extensionsFor(services, model)) await ext.afterWrite?.(hookCtx);
  const ids = plans.map((p) => p.row.id);
  const action: Action = items[0]?.before ? 'change' : 'add';
  await checkScope(services, exec, rc, model, action, ids);
  const stored = await services.store.byIds(exec, model, ids);
  const byId = new Map(stored.map((r) => [r.id, r]));
  const rows = ids.map((id) => byId.get(id) as Row);
  const logged = await recordChanges(services, exec, rc, model, items[0]?.before ? 'update' : 'create', rows);
  return logged ? keepLoaded(rows, logged.loaded, logged.opts) : rows;
}
