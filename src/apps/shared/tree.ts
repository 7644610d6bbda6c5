import type { DisplayFn, Rule } from '../../core/registry/types.js';

/** Tree display: ancestor names and the object's own, root first, joined with ' → '. */
export const treeDisplay: DisplayFn = (row, ctx) => [...ctx.ancestors(row), row].map((r) => String(r.name)).join(' → ');

/**
 * A tree parent cannot be the object itself or one of its descendants. A new object has no
 * descendants, and its parent is a stored row (references resolve before the write). An update
 * that keeps the parent keeps a stored chain this rule accepted when the parent was set: the
 * walk up to the root (a query per level) is left out.
 */
export const parentNotDescendant: Rule = async ({ row, before, model, get }) => {
  if (!before || before.parent_id === row.parent_id) return;
  let current = row.parent_id as string | null;
  for (let guard = 0; current && guard < 1000; guard += 1) {
    if (current === row.id) return { parent: 'Cannot assign self or child as parent.' };
    current = ((await get(model.id, current))?.parent_id as string | null) ?? null;
  }
};
