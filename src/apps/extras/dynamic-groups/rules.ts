import { ConflictError, ValidationError } from '../../../core/errors.js';
import { buildWhere } from '../../../ops/filters/apply.js';
import { addError, cleanPlans, rowsById } from '../../dcim/extensions/support.js';
import { filterParams } from './membership.js';
import type { Row } from '../../../core/registry/types.js';
import type { Exec } from '../../../db/store.js';
import type { AppExtensions, DeleteHookContext, WriteHookContext } from '../../../ops/extensions.js';
import type { ItemPlan } from '../../../ops/write/build-item.js';

const isDict = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const hasFilter = (row: Row | undefined): boolean => isDict(row?.filter) && Object.keys(row.filter).length > 0;

/** A dynamic-filter group's filter must pass its model's REST filter set (errors keyed by filter name, as the reference's filterset.errors). */
async function checkFilterSet(ctx: WriteHookContext, plan: ItemPlan): Promise<void> {
  const model = ctx.services.registry.find(String(plan.row.content_type));
  if (!model) return;
  try {
    await buildWhere({ services: ctx.services, exec: ctx.exec, model, actor: null }, filterParams(plan.row.filter));
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    for (const [key, messages] of Object.entries(err.body as Record<string, string[]>)) for (const m of messages) addError(plan, key, m);
  }
}

/** Reference `DynamicGroup.clean_filter` and `clean`: a dict filter, only on dynamic-filter groups, valid for the model; content type fixed. */
async function checkGroups(ctx: WriteHookContext): Promise<void> {
  for (const plan of cleanPlans(ctx.plans)) {
    const { row, before } = plan;
    if (before && row.content_type !== before.content_type) addError(plan, 'content_type', 'ContentType cannot be changed once created');
    else if (!isDict(row.filter)) addError(plan, 'filter', 'Filter must be a dict');
    else if (row.group_type !== 'dynamic-filter') {
      if (hasFilter(row)) addError(plan, 'filter', 'Filter can only be set for groups of type `dynamic-filter`.');
    } else await checkFilterSet(ctx, plan);
  }
}

/** Ids of the groups that contain `groupId`, at any level (one query per level). */
async function ancestorsOf(exec: Exec, groupId: string): Promise<Set<string>> {
  const seen = new Set<string>();
  let level = [groupId];
  while (level.length > 0) {
    const rows = await exec.selectFrom('extras_dynamicgroupmembership').select('parent_group_id').where('group_id', 'in', level).execute();
    level = rows.map((r) => String(r.parent_group_id)).filter((id) => !seen.has(id));
    for (const id of level) seen.add(id);
  }
  return seen;
}

/** The first reason (field, message) a membership is refused, as the reference's `DynamicGroupMembership.clean`. */
async function membershipProblem(exec: Exec, parent: Row, group: Row): Promise<[string, string] | undefined> {
  if (parent.group_type !== 'dynamic-set' && hasFilter(parent)) return ['parent_group', 'A parent group must be of `group_type` `"dynamic-set"`.'];
  if (group.group_type === 'static') return ['group', 'Groups of `group_type` `"static"` may not be child groups at this time.'];
  if (parent.content_type !== group.content_type) return ['group', 'ContentType for group and parent_group must match'];
  if (parent.id === group.id) return ['group', 'Cannot add group as a child of itself'];
  if ((await ancestorsOf(exec, parent.id)).has(group.id)) return ['group', 'Cannot add ancestor as a child'];
  return undefined;
}

async function checkMemberships(ctx: WriteHookContext): Promise<void> {
  const plans = cleanPlans(ctx.plans);
  const groups = await rowsById(ctx.services, ctx.exec, 'extras.dynamicgroup', plans.flatMap((p) => [p.row.parent_group_id, p.row.group_id]));
  for (const plan of plans) {
    const parent = groups.get(String(plan.row.parent_group_id));
    const group = groups.get(String(plan.row.group_id));
    const problem = parent && group ? await membershipProblem(ctx.exec, parent, group) : undefined;
    if (problem) addError(plan, problem[0], problem[1]);
  }
}

/** A dynamic-filter parent without a filter becomes a dynamic-set when it gains a child (the reference's backwards compatibility). */
async function promoteParents(ctx: WriteHookContext): Promise<void> {
  const groups = await rowsById(ctx.services, ctx.exec, 'extras.dynamicgroup', ctx.plans.map((p) => p.row.parent_group_id));
  const ids = [...groups.values()].filter((g) => g.group_type === 'dynamic-filter' && !hasFilter(g)).map((g) => g.id);
  if (ids.length > 0) await ctx.exec.updateTable('extras_dynamicgroup').set({ group_type: 'dynamic-set' }).where('id', 'in', ids).execute();
}

/**
 * A group that is another group's child cannot be deleted (the reference's `DynamicGroup.delete`
 * raises ProtectedError naming the parents: a 409); parents deleted in the same request do not count.
 */
async function refuseChildDelete({ services, exec, rows }: DeleteHookContext): Promise<void> {
  const doomed = new Set(rows.map((r) => r.id));
  const links = await exec.selectFrom('extras_dynamicgroupmembership').select('parent_group_id').where('group_id', 'in', [...doomed]).execute();
  const parentIds = [...new Set(links.map((l) => String(l.parent_group_id)))].filter((id) => !doomed.has(id));
  if (parentIds.length === 0) return;
  const parents = [...(await rowsById(services, exec, 'extras.dynamicgroup', parentIds)).values()].sort((a, b) => String(a.name).localeCompare(String(b.name)));
  throw new ConflictError(`Unable to delete object. ${parents.length} dependent objects were found: ${parents.map((p) => `${String(p.name)} (${p.id})`).join(', ')}`);
}

/** Dynamic group and membership rules that need the database (the filter set, the group tree). */
export const dynamicGroupRules: AppExtensions = {
  'extras.dynamicgroup': { parseInput: checkGroups, beforeDelete: refuseChildDelete },
  'extras.dynamicgroupmembership': { parseInput: checkMemberships, afterWrite: promoteParents },
};
