import { chunk } from '../../db/store.js';
import { referenceClause } from '../permissions.js';
import { isWritable } from './build-item.js';
import type { Exec } from '../../db/store.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';
import type { RequestContext, Services } from '../services.js';
import type { ItemPlan } from './build-item.js';

/** A generic relation a client writes through its `<name>_type` and `<name>_id` fields. */
type WrittenGeneric = { type: ResolvedField; id: ResolvedField };

/** The model's generic relations whose type and id fields are both client-writable. */
function writtenGenerics(model: ResolvedModel): WrittenGeneric[] {
  return model.fields.flatMap((field) => {
    if (field.kind !== 'generic_fk') return [];
    const [type, id] = [model.fieldMap.get(`${field.name}_type`), model.fieldMap.get(`${field.name}_id`)];
    return type?.column && id?.column && isWritable(type) && isWritable(id) ? [{ type, id }] : [];
  });
}

/** Whether a plan names (or, on create, sets) the generic relation, with no error on its fields yet. */
function names(plan: ItemPlan, generic: WrittenGeneric): boolean {
  if (plan.errors[generic.type.name] || plan.errors[generic.id.name]) return false;
  return !plan.before || generic.type.name in plan.input || generic.id.name in plan.input;
}

/**
 * The object a written generic relation names must exist among those the actor may view, as the
 * reference's serializer checks before the model's clean(): else a 400 `{<name>_id: ["Object not
 * found"]}`. One query per generic relation and target model for the whole batch.
 */
export async function checkGenericTargets(services: Services, exec: Exec, rc: RequestContext, model: ResolvedModel, plans: ItemPlan[]): Promise<void> {
  for (const generic of writtenGenerics(model)) {
    const byType = new Map<string, ItemPlan[]>();
    for (const plan of plans.filter((p) => names(p, generic))) {
      const type = plan.row[generic.type.column as string];
      if (typeof type !== 'string' || typeof plan.row[generic.id.column as string] !== 'string') continue;
      const group = byType.get(type);
      if (group) group.push(plan);
      else byType.set(type, [plan]);
    }
    for (const [type, group] of byType) {
      const target = services.registry.find(type);
      if (!target) {
        for (const plan of group) (plan.errors[generic.type.name] ??= []).push('Invalid content-type');
        continue;
      }
      const found = new Set<string>();
      const clause = rc.actor ? referenceClause(services, rc.actor, target) : null;
      for (const part of chunk([...new Set(group.map((p) => String(p.row[generic.id.column as string])))])) {
        let query = exec.selectFrom(target.table).select(`${target.table}.id`).where(`${target.table}.id`, 'in', part);
        if (clause) query = query.where(clause);
        for (const row of await query.execute()) found.add(String(row.id));
      }
      for (const plan of group) {
        if (!found.has(String(plan.row[generic.id.column as string]))) (plan.errors[generic.id.name] ??= []).push('Object not found');
      }
    }
  }
}
