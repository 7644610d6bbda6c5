/**
 * A JSON syntax error in the words of the reference's parser (Python's `json` module):
 * `Expecting value: line 1 column 10 (char 9)`. JavaScript's messages name the same faults
 * with an offset; the ones it names without one keep JavaScript's text.
 */

/** Python's position suffix: line and column are 1-based, char the 0-based offset. */
function at(text: string, pos: number): string {
  const line = text.slice(0, pos).split('\n').length;
  const column = pos - text.lastIndexOf('\n', pos - 1);
  return `line ${line} column ${column} (char ${pos})`;
}

/** JavaScript message pattern -> Python's wording (the offset follows). */
const FAULTS: [RegExp, string][] = [
  [/^Expected ':' after property name/, "Expecting ':' delimiter"],
  [/^Expected property name or '}'/, 'Expecting property name enclosed in double quotes'],
  [/^Expected double-quoted property name/, 'Expecting property name enclosed in double quotes'],
  [/^Expected ',' or '}' after property value/, "Expecting ',' delimiter"],
  [/^Expected ',' or ']' after array element/, "Expecting ',' delimiter"],
  [/^Unexpected non-whitespace character after JSON/, 'Extra data'],
  [/^Bad control character in string literal/, 'Invalid control character at'],
  [/^Unexpected token/, 'Expecting value'],
];

export function pythonJsonError(text: string, message: string): string {
  if (message.startsWith('Unexpected end of JSON input')) return `Expecting value: ${at(text, text.length)}`;
  const offset = /at position (\d+)/.exec(message);
  const fault = FAULTS.find(([pattern]) => pattern.test(message));
  if (!offset || !fault) return message;
  return `${fault[1]}: ${at(text, Number(offset[1]))}`;
}
