/** Turns a statement's row, given as the values of its columns, into an object keyed by `names`. */
export type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * A row builder compiled once for a statement's column names (an object literal: about twice as
 * fast as building the object key by key). A later repeated name wins, as in the driver's
 * objects. Names must not include `__proto__` (an object literal would take it as the prototype).
 */
export function compileRowBuilder(names: readonly string[]): RowBuilder {
  return new Function('v', `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}};`) as RowBuilder;
}
