/**
 * IN-lists of placeholders as one JSON parameter on SQLite (issue 22): `"t"."id" in (?, ?, ?)`
 * is run as `"t"."id" in (SELECT value FROM json_each(?))` with the three values as one JSON
 * array. A statement then has one text whatever the list's length (one prepared statement where
 * there were one per length), and SQLite no longer builds the list's ephemeral table value by
 * value: under the service's allocations that build touched fresh memory on every request (page
 * faults in SQLite's page cache), about 1 ms of a list page's 0.2 ms links-and-counts statement.
 *
 * The same answer: SQLite compares `x IN (SELECT value ...)` as `x = value`, the column's
 * affinity applied to the values as it was to each placeholder's (json_each gives text, integers,
 * reals and NULL as they were bound). Lists of one value stay (SQLite runs `x IN (?)` as
 * `x = ?`), and so does a statement whose listed values are not all text, finite numbers or NULL
 * (a blob or a bigint has no JSON form): it runs as written. Only lists after a column name
 * (quoted or not, maybe qualified) are rewritten; string literals and quoted names are skipped
 * when placeholders are counted.
 */

/** A column name, then `in (` or `not in (` and a run of placeholders; a string literal; a quoted name; a lone placeholder. */
const TOKENS = /((?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)(?:\.(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*))?)(\s+not)?\s+in\s*\(\s*(\?(?:\s*,\s*\?)+)\s*\)|'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/gi;

/** The rewritten text and, per placeholder of it, how many of the given values it carries (0: one value as it is). */
export type InListPlan = { text: string; widths: number[] };

/** The plan of a text: null when it has no IN-list of two values or more. */
export function planInLists(text: string): InListPlan | null {
  const widths: number[] = [];
  const rewritten = text.replace(TOKENS, (match: string, column: string | undefined, not: string | undefined, list: string | undefined) => {
    if (list !== undefined) {
      widths.push(list.split(',').length);
      return `${column}${not ?? ''} in (SELECT value FROM json_each(?))`;
    }
    if (match === '?') widths.push(0);
    return match;
  });
  return widths.some((w) => w > 0) ? { text: rewritten, widths } : null;
}

/** A value json_each gives back as it was bound. */
function jsonable(value: unknown): boolean {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The values for the plan's text (each list as one JSON array), or null when a list holds a value JSON cannot carry. */
export function packInLists(plan: InListPlan, values: readonly unknown[]): unknown[] | null {
  const out: unknown[] = [];
  let at = 0;
  for (const width of plan.widths) {
    if (width === 0) {
      out.push(values[at++]);
      continue;
    }
    const list = values.slice(at, (at += width));
    if (!list.every(jsonable)) return null;
    out.push(JSON.stringify(list));
  }
  return at === values.length ? out : null;
}
