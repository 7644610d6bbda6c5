import { GraphQLError, Kind } from 'graphql';
import type { ASTVisitor, FragmentDefinitionNode, SelectionSetNode, ValidationContext, ValidationRule } from 'graphql';

/** Introspection fields: their own nesting (`ofType { ofType { ... } }`) is not a data query's depth. */
const INTROSPECTION = new Set(['__schema', '__type']);

/** Fragment definitions by name, and their depths once worked out (a fragment used many times is measured once). */
type Fragments = { defs: Map<string, FragmentDefinitionNode>; depths: Map<string, number> };

/**
 * The levels of objects a selection reaches (`devices { interfaces { name } }` is 2), through
 * fragments and inline fragments; a fragment spread inside itself counts as nothing there (its
 * cycle is NoFragmentCycles's error to report).
 */
function depthOf(selection: SelectionSetNode | undefined, fragments: Fragments): number {
  if (!selection) return 0;
  let deepest = 0;
  for (const node of selection.selections) {
    if (node.kind === Kind.FIELD) {
      if (INTROSPECTION.has(node.name.value) || !node.selectionSet) continue;
      deepest = Math.max(deepest, 1 + depthOf(node.selectionSet, fragments));
    } else if (node.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(node.selectionSet, fragments));
    } else {
      deepest = Math.max(deepest, fragmentDepth(node.name.value, fragments));
    }
  }
  return deepest;
}

function fragmentDepth(name: string, fragments: Fragments): number {
  const known = fragments.depths.get(name);
  if (known !== undefined) return known;
  const fragment = fragments.defs.get(name);
  fragments.depths.set(name, 0);
  const depth = fragment ? depthOf(fragment.selectionSet, fragments) : 0;
  fragments.depths.set(name, depth);
  return depth;
}

/** A validation rule refusing operations nested deeper than `max` levels of objects (GRAPHQL_MAX_DEPTH; 0: no maximum). */
export function maxDepthRule(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      if (max <= 0) return;
      const defs = new Map(context.getDocument().definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
      const depth = depthOf(node.selectionSet, { defs, depths: new Map() });
      if (depth > max) context.reportError(new GraphQLError(`Query is nested ${depth} levels deep; the maximum is ${max} (GRAPHQL_MAX_DEPTH).`, { nodes: node }));
    },
  });
}
