/**
 * IN-lists of placeholders as one array parameter (issue 22). `"t"."id" in ($2, $3, $4)` is
 * sent as `"t"."id" = ANY($2)` with the three values as one array (`not in`: `<> ALL`, the same
 * answer, NULLs included): a statement then has one text whatever the list's length, so
 * PostgreSQL prepares it once per connection instead of once per length (and lists longer than
 * the 65 535 parameters of a statement fit). The column's type types the array, as it typed each
 * placeholder. Only lists after a column name (quoted or not, maybe qualified) are rewritten.
 * Done in the pool's query wrapper (postgres-statements.ts), below Kysely: SQL_TRACE and the
 * statement counter see the text as compiled.
 */

/** A column name, then `in (` or `not in (` and a run of placeholders; or a lone placeholder. */
const TOKENS = /((?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)(?:\.(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*))?)(\s+not)?\s+in\s*\(\s*(\$\d+(?:\s*,\s*\$\d+)*)\s*\)|\$(\d+)/gi;

/** Every placeholder of a text, in order. */
const PLACEHOLDER = /\$(\d+)/g;

/** The rewritten text and, per parameter of it, how many of the original values it carries (0: one value as it is). */
export type InListPlan = { text: string; widths: number[] };

/** Texts seen and their plans (null: nothing to rewrite); emptied when full. */
const MAX_PLANS = 5000;
const plans = new Map<string, InListPlan | null>();

/**
 * The plan of a text: null when it has no IN-list, or when its placeholders are not $1..$n in
 * order, each once (as Kysely compiles them), which the renumbering relies on.
 */
function planOf(text: string): InListPlan | null {
  const numbers = Array.from(text.matchAll(PLACEHOLDER), (m) => Number(m[1]));
  if (!numbers.every((n, i) => n === i + 1)) return null;
  const widths: number[] = [];
  const rewritten = text.replace(TOKENS, (match, column: string | undefined, not: string | undefined, list: string | undefined) => {
    if (list === undefined) {
      widths.push(0);
      return `$${widths.length}`;
    }
    widths.push(list.split(',').length);
    return not ? `${column} <> ALL($${widths.length})` : `${column} = ANY($${widths.length})`;
  });
  return widths.some((w) => w > 0) ? { text: rewritten, widths } : null;
}

function cachedPlan(text: string): InListPlan | null {
  let plan = plans.get(text);
  if (plan === undefined) {
    if (plans.size >= MAX_PLANS) plans.clear();
    plans.set(text, (plan = planOf(text)));
  }
  return plan;
}

/** A value an array parameter carries as one element (pg writes nested arrays and objects otherwise). */
function scalar(value: unknown): boolean {
  return value === null || typeof value !== 'object' || value instanceof Date || Buffer.isBuffer(value);
}

/**
 * The text and values to send for `text` run with `values`: IN-lists collapsed into array
 * parameters, or the statement as it is when it has none (or a listed value is not a scalar).
 */
export function collapseInLists(text: string, values: readonly unknown[]): { text: string; values: unknown[] } {
  const plan = cachedPlan(text);
  if (!plan || plan.widths.reduce((n, w) => n + Math.max(1, w), 0) !== values.length) return { text, values: values as unknown[] };
  const out: unknown[] = [];
  let at = 0;
  for (const width of plan.widths) {
    if (width === 0) out.push(values[at++]);
    else {
      const list = values.slice(at, (at += width));
      if (!list.every(scalar)) return { text, values: values as unknown[] };
      out.push(list);
    }
  }
  return { text: plan.text, values: out };
}
