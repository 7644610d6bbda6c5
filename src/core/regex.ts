import { RE2JS } from 're2js';

/**
 * Regular expressions evaluated in this process (SQLite's REGEXP, custom-field
 * `validation_regex`) run on RE2 (`re2js`, pure JavaScript): matching takes time linear in the
 * text whatever the pattern, so no pattern can stall the event loop (issue 17: `(a+)+$` over 50
 * names froze the service under JavaScript's backtracking RegExp). RE2 refuses what needs
 * backtracking: backreferences (`\1`, `(?P=name)`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`);
 * such a pattern is refused with a 400 (README, "Regular expressions").
 */

/** Compiled patterns by flag and text; a bounded table (filters repeat the same few patterns). */
const compiled = new Map<string, RE2JS | string>();
const MAX_COMPILED = 500;

/** Backreferences and lookaround: what backtracking engines (PostgreSQL's, Python's) offer and RE2 refuses. */
const BACKTRACKING_SYNTAX = /\\[1-9]|\(\?P=|\(\?<?[=!]/;

/** The compiled pattern, or the reason it cannot run. */
function compile(pattern: string, caseInsensitive: boolean): RE2JS | string {
  const key = `${caseInsensitive ? 'i' : '-'}${pattern}`;
  let entry = compiled.get(key);
  if (entry === undefined) {
    try {
      entry = RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    } catch (err) {
      entry = BACKTRACKING_SYNTAX.test(pattern)
        ? 'Backreferences and lookaround are not supported: patterns run on a linear-time engine (RE2 syntax).'
        : `Invalid regular expression: ${String((err as Error).message).replace(/^error parsing regexp: /, '')}`;
    }
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(key, entry);
  }
  return entry;
}

/** Why `pattern` cannot run on the linear-time engine, or null when it can. */
export function regexError(pattern: string): string | null {
  const entry = compile(pattern, false);
  return typeof entry === 'string' ? entry : null;
}

/** Whether `pattern` uses syntax only backtracking engines offer (then a database engine may still run it). */
export function needsBacktracking(pattern: string): boolean {
  return BACKTRACKING_SYNTAX.test(pattern) && regexError(pattern) !== null;
}

/** `re.search`: whether the pattern matches anywhere in `text`; false for a pattern that cannot run. */
export function regexSearch(pattern: string, text: string, caseInsensitive = false): boolean {
  const entry = compile(pattern, caseInsensitive);
  return typeof entry !== 'string' && entry.matcher(text).find();
}
