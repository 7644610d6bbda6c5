import { col, or } from '../../../db/query/sql-helpers.js';
import { resolveIds } from '../../../ops/filters/resolve-values.js';
import { OPPOSITE, isSymmetric, loadRelationships, toRelationshipDef, typeOf } from './definitions.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { FilterContext, FilterDef } from '../../../ops/filters/filter-set.js';
import type { RelationshipDef, Side } from './definitions.js';
import type { Exec } from '../../../db/store.js';
import type { Services } from '../../../ops/services.js';

/** Sides an object of `modelId` filters on for `rel`, skipping sides hidden on the model's end (reference). */
function filterSides(rel: RelationshipDef, modelId: string): Side[] {
  if (isSymmetric(rel)) return rel.source_type === modelId && !rel.source_hidden ? ['peer'] : [];
  const sides: Side[] = [];
  if (rel.source_type === modelId && !rel.source_hidden) sides.push('destination');
  if (rel.destination_type === modelId && !rel.destination_hidden) sides.push('source');
  return sides;
}

/** Objects associated through `rel` with any of `peers` given on `side` (the side the peers sit on). */
function associatedWith(ctx: FilterContext, rel: RelationshipDef, side: Side, peers: string[]): Clause {
  const table = ctx.services.registry.get('extras.relationshipassociation').table;
  const id = col(ctx.model.table, 'id');
  const via = (mine: 'source_id' | 'destination_id', theirs: 'source_id' | 'destination_id'): Clause => (eb) =>
    eb(id, 'in', eb.selectFrom(table).select(mine).where('relationship_id', '=', rel.id).where(theirs, 'in', peers));
  const clauses: Clause[] = [];
  if (side === 'destination' || side === 'peer') clauses.push(via('source_id', 'destination_id'));
  if (side === 'source' || side === 'peer') clauses.push(via('destination_id', 'source_id'));
  return or(clauses);
}

function relationshipFilter(rel: RelationshipDef, side: Side): FilterDef {
  return {
    lookups: new Set(),
    async build(ctx, _lookup, values) {
      const peerModel = ctx.services.registry.get(typeOf(rel, side === 'peer' ? 'source' : side));
      const peers = await resolveIds(ctx.exec, peerModel, values.filter((v) => v !== ''));
      return peers.length > 0 ? associatedWith(ctx, rel, side, peers) : (eb) => eb.val(true) as never;
    },
  };
}

/**
 * `cr_<relationship key>__source|destination|peer=<id>`: objects associated with the given peers
 * (api-behaviour.md section 7). Named after the side the peers sit on; OR across values.
 */
export async function relationshipDynamicFilter(ctx: FilterContext, param: string): Promise<{ def: FilterDef; lookup: string } | undefined> {
  if (!param.startsWith('cr_') || !ctx.model.fieldMap.has('relationships')) return undefined;
  const cut = param.lastIndexOf('__');
  if (cut <= 3) return undefined;
  const side = param.slice(cut + 2) as Side;
  if (!(side in OPPOSITE)) return undefined;
  const [rel] = await loadRelationships(ctx.services, ctx.exec, ctx.model.id, { key: param.slice(3, cut) });
  if (!rel || !filterSides(rel, ctx.model.id).includes(side)) return undefined;
  return { def: relationshipFilter(rel, side), lookup: 'exact' };
}

/** The `cr_<key>__<side>` families of every model as they are now (listDynamicFilters; one query). */
export async function listRelationshipFilters({ services, exec }: { services: Services; exec: Exec }): Promise<Map<string, Record<string, FilterDef>>> {
  const model = services.registry.get('extras.relationship');
  const rels = (await exec.selectFrom(model.table).selectAll().orderBy('label').execute()).map((r) => toRelationshipDef(services.store.decode(model, r)));
  const out = new Map<string, Record<string, FilterDef>>();
  for (const rel of rels) {
    for (const modelId of new Set([rel.source_type, rel.destination_type])) {
      if (!services.registry.find(modelId)?.fieldMap.has('relationships')) continue;
      const families = filterSides(rel, modelId).map((side) => [`cr_${rel.key}__${side}`, relationshipFilter(rel, side)]);
      out.set(modelId, { ...out.get(modelId), ...Object.fromEntries(families) });
    }
  }
  return out;
}
