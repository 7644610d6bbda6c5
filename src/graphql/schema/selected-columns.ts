import { Kind, getNamedType, isObjectType } from 'graphql';
import type { FieldNode, FragmentDefinitionNode, GraphQLFieldConfig, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import type { ResolvedModel } from '../../core/registry/types.js';

/**
 * The columns a field of an object type reads from its row (`extensions.columns`): its own
 * column, an FK's, none beyond `id` for lists and URLs, or null when it needs the whole row
 * (values an app computes from many columns: config context, computed fields, CIDR texts).
 */
export function reads(columns: readonly string[] | null): Pick<GraphQLFieldConfig<unknown, unknown>, 'extensions'> {
  return { extensions: { columns } };
}

/** Names of the fields a selection asks for, through fragments (a field asked in any branch counts). */
function fieldNames(selection: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, out: Set<string>, seen: Set<string>): void {
  for (const node of selection?.selections ?? []) {
    if (node.kind === Kind.FIELD) out.add(node.name.value);
    else if (node.kind === Kind.INLINE_FRAGMENT) fieldNames(node.selectionSet, fragments, out, seen);
    else if (!seen.has(node.name.value)) {
      seen.add(node.name.value);
      fieldNames(fragments[node.name.value]?.selectionSet, fragments, out, seen);
    }
  }
}

const memo = new WeakMap<readonly FieldNode[], string[] | null>();

/**
 * The columns of `model` the selection under this list field reads (id always; an address column
 * with the row's IP version, which its decoding needs), or null for the whole row: a batched read
 * then decodes only what the query shows. Worked out once per field of the query.
 */
export function selectedColumns(info: GraphQLResolveInfo, model: ResolvedModel): string[] | null {
  const known = memo.get(info.fieldNodes);
  if (known !== undefined) return known;
  const type = getNamedType(info.returnType);
  let columns: string[] | null = null;
  if (isObjectType(type)) {
    const names = new Set<string>();
    for (const node of info.fieldNodes) fieldNames(node.selectionSet, info.fragments, names, new Set());
    const fields = type.getFields();
    const wanted = new Set<string>(['id']);
    for (const name of names) {
      if (name === '__typename') continue;
      const cols = fields[name]?.extensions?.columns as readonly string[] | null | undefined;
      if (cols === null || cols === undefined) {
        wanted.clear();
        break;
      }
      for (const c of cols) wanted.add(c);
    }
    if (wanted.size > 0) {
      if (model.columns.some((f) => f.kind === 'ip_address' && wanted.has(f.column as string)) && model.fieldMap.get('ip_version')?.column) wanted.add('ip_version');
      columns = [...wanted].sort();
    }
  }
  memo.set(info.fieldNodes, columns);
  return columns;
}
