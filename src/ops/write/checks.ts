import { toLabel } from '../../core/registry/resolve.js';
import { chunk } from '../../db/store.js';
import { RowBatcher } from './row-batcher.js';
import { collidingPlans } from './unique-together.js';
import { checkGenericTargets } from './generic-targets.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedModel, Row, RuleContext } from '../../core/registry/types.js';
import type { RequestContext, Services } from '../services.js';
import type { ItemPlan } from './build-item.js';

function addError(plan: ItemPlan, field: string, message: string): void {
  (plan.errors[field] ??= []).push(message);
}

function capFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Unique single fields: one query per field for the whole batch, plus duplicates inside it. */
async function checkUniqueFields(services: Services, exec: Exec, model: ResolvedModel, plans: ItemPlan[]): Promise<void> {
  for (const field of model.columns) {
    if (!field.unique || field.name === 'id') continue;
    const col = field.column as string;
    const values = plans.map((p) => p.row[col]).filter((v) => v !== null && v !== undefined && v !== '');
    const taken = new Map<unknown, string>();
    for (const part of chunk([...new Set(values)])) {
      for (const r of await exec.selectFrom(model.table).select(['id', col]).where(col, 'in', part).execute()) taken.set(r[col], r.id as string);
    }
    const seen = new Set<unknown>();
    for (const plan of plans) {
      const value = plan.row[col];
      if (value === null || value === undefined || value === '') continue;
      const owner = taken.get(value);
      if ((owner && owner !== plan.row.id) || seen.has(value)) addError(plan, field.name, `${capFirst(model.verbose_name)} with this ${toLabel(field.name).toLowerCase()} already exists.`);
      seen.add(value);
    }
  }
}

/** Unique-together sets; a set with a null member is skipped unless its message says nulls are equal. */
async function checkUniqueTogether(services: Services, exec: Exec, model: ResolvedModel, plans: ItemPlan[]): Promise<void> {
  for (const set of model.unique_together) {
    const cols = set.map((n) => model.fieldMap.get(n)?.column).filter((c): c is string => !!c);
    if (cols.length !== set.length) continue;
    const custom = model.unique_messages[set.join(',')];
    const checked = plans.filter((plan) => custom?.nulls_equal || !cols.some((c) => plan.row[c] === null || plan.row[c] === undefined));
    const colliding = await collidingPlans(services, exec, model, cols, checked);
    const seen = new Set<string>();
    for (const plan of checked) {
      const key = JSON.stringify(cols.map((c) => plan.row[c] ?? null));
      if (colliding.has(plan) || seen.has(key)) {
        if (custom) addError(plan, custom.field, typeof custom.message === 'function' ? custom.message(plan.row) : custom.message);
        else addError(plan, 'non_field_errors', `The fields ${set.join(', ')} must make a unique set.`);
      }
      seen.add(key);
    }
  }
}

/** What every object's rule context of one write shares: its reads, made once per write (not per object). */
type SharedRuleContext = Pick<RuleContext, 'get' | 'find' | 'linksOf' | 'model' | 'config'>;

/**
 * The reads of one write's rules. A rule reading an object of the same write sees it as the
 * write leaves it (`pending`), so a bulk write cannot pass checks pairwise that it fails as a
 * whole (A's parent B and B's parent A).
 */
function sharedRuleContext(services: Services, exec: Exec, model: ResolvedModel, reader: RowBatcher, pending: ReadonlyMap<unknown, Row>): SharedRuleContext {
  const get = (m: string, id: unknown) => {
    const own = m === model.id ? pending.get(id) : undefined;
    return own ? Promise.resolve(own) : reader.get(m, id);
  };
  const linksOf = (modelId: string, field: string, ids: string[]) => {
    const target = services.registry.get(modelId);
    return services.store.links(exec, target, target.fieldMap.get(field)!, ids);
  };
  return { get, find: (m, where) => reader.find(m, where), linksOf, model, config: services.config };
}

/** The model's rules on one object, in order; errors are added to its plan. */
async function rulesOf(model: ResolvedModel, plan: ItemPlan, shared: SharedRuleContext): Promise<void> {
  const links = async (field: string) => plan.links.get(field) ?? (plan.before ? (await shared.linksOf(model.id, field, [String(plan.row.id)])).get(String(plan.row.id)) ?? [] : []);
  const ctx: RuleContext = { row: plan.row as Row, before: plan.before, get: shared.get, find: shared.find, model, config: shared.config, links, linksOf: shared.linksOf };
  for (const rule of model.rules) {
    // A rule that answers at once is not awaited (an await costs a promise).
    const answer = rule(ctx);
    const errors = isPromise(answer) ? await answer : answer;
    if (errors) addErrors(plan, errors);
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

function addErrors(plan: ItemPlan, errors: Record<string, string | string[]>): void {
  for (const [field, messages] of Object.entries(errors)) for (const message of [messages].flat()) addError(plan, field, message);
}

/**
 * Runs the model's rules (catalogue clean() checks) on each object that passed field checks.
 * The objects' rules run side by side so their reads share queries (RowBatcher); every run is
 * settled before an error is passed on, so no read outlives the transaction.
 */
async function checkRules(services: Services, exec: Exec, model: ResolvedModel, plans: ItemPlan[]): Promise<void> {
  if (model.rules.length === 0) return;
  const reader = new RowBatcher(services, exec);
  const pending = new Map<unknown, Row>(plans.filter((p) => p.before).map((p) => [p.row.id, p.row as Row]));
  const shared = sharedRuleContext(services, exec, model, reader, pending);
  const runs = await Promise.allSettled(plans.filter((p) => Object.keys(p.errors).length === 0).map((plan) => rulesOf(model, plan, shared)));
  const failed = runs.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Uniqueness, generic relation targets and model rules, inside the write's transaction (the reference's order). */
export async function runChecks(services: Services, exec: Exec, rc: RequestContext, model: ResolvedModel, plans: ItemPlan[]): Promise<void> {
  await checkUniqueFields(services, exec, model, plans);
  await checkUniqueTogether(services, exec, model, plans);
  await checkGenericTargets(services, exec, rc, model, plans);
  await checkRules(services, exec, model, plans);
}
