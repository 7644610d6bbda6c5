import type { Part, RowWriter } from './render-text.js';

/**
 * A model's row writer generated as one function (issue 22): its fields in order, each key's text
 * a constant and each field's emitter called from its own call site, with no loop over plans and
 * no dispatch by kind per field. The generated code holds only fixed syntax and names made from
 * field positions (`e3`, `c3`): keys, emitters and writers come in as arguments, never as code.
 *
 * Text is gathered in `s` and handed to the sink once per row (and before a relation's writer,
 * which writes into the sink itself). JSON.stringify's undefined (a value JSON leaves out) leaves
 * the key out; `o` tracks at run time whether the object was opened when that could go either way.
 */

/** Whether something was written before a field: surely not, surely, or only known at run time (`o`). */
type Opened = 'no' | 'yes' | 'maybe';

/** The code that writes `text` (an expression) as the next member, and what is known afterwards. */
function member(i: number, text: string, opened: Opened): string {
  if (opened === 'no') return `s += b${i} + ${text};`;
  if (opened === 'yes') return `s += c${i} + ${text};`;
  return `s += (o ? c${i} : b${i}) + ${text}; o = true;`;
}

/** The code of one part and what is known afterwards of whether the object was opened. */
function partCode(part: Part, i: number, opened: Opened): [string, Opened] {
  if ('write' in part) {
    const open = opened === 'no' ? `b${i}` : opened === 'yes' ? `c${i}` : `(o ? c${i} : b${i})`;
    return [`sink.add(s + ${open}); s = ''; w${i}(state, row, depth);`, 'yes'];
  }
  if ('text' in part) return [member(i, `t${i}(state, row)`, opened), 'yes'];
  const value = `v = JSON.stringify(e${i}(base, row, depth));`;
  if (opened === 'yes') return [`${value} if (v !== undefined) ${member(i, 'v', 'yes')}`, 'yes'];
  // A value left out keeps the object unopened: from here whether it is opened is known at run time.
  return [`${value} if (v !== undefined) { ${member(i, 'v', opened)}${opened === 'no' ? ' o = true;' : ''} }`, 'maybe'];
}

/** The code of the object's end (with `extra`, a last member, when given). */
function endCode(opened: Opened): string {
  if (opened === 'no') return `sink.add(extra === undefined ? '{}' : '{' + extra + '}');`;
  if (opened === 'yes') return `sink.add(extra === undefined ? s + '}' : s + ',' + extra + '}');`;
  return `sink.add(extra === undefined ? (o ? s + '}' : '{}') : s + (o ? ',' : '{') + extra + '}');`;
}

/** The row writer of `parts`, generated once. */
export function compileRowWriter(parts: Part[]): RowWriter {
  const names: string[] = [];
  const values: unknown[] = [];
  const lines: string[] = [];
  let opened: Opened = 'no';
  parts.forEach((part, i) => {
    names.push(`b${i}`, `c${i}`);
    values.push(`{${part.key}`, `,${part.key}`);
    if ('write' in part) (names.push(`w${i}`), values.push(part.write));
    else if ('text' in part) (names.push(`t${i}`), values.push(part.text));
    else (names.push(`e${i}`), values.push(part.json));
    const [code, next] = partCode(part, i, opened);
    lines.push(code);
    opened = next;
  });
  lines.push(endCode(opened));
  const body = `return function writeRow(state, row, depth, extra) {\n  const sink = state.sink; const base = state.base; let s = ''; let v; let o = false;\n  ${lines.join('\n  ')}\n};`;
  // Generated from field positions only (see above).
  return new Function(...names, body)(...values) as RowWriter;
}
