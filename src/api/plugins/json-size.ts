/**
 * What a JSON text holds, counted without parsing it: the items of a top-level list and every
 * value at any depth. Parsing allocates per value (a 15 MB list of `{}` is five million objects:
 * seconds of a blocked event loop and hundreds of MB), so a body over its limits is refused
 * before `JSON.parse` sees it (issue 17). The scan stops as soon as a limit is passed. `depth`
 * is the deepest nesting of lists and objects seen.
 */
export type JsonSize = { items: number; values: number; depth: number };

const [QUOTE, BACKSLASH, COMMA, OPEN_LIST, CLOSE_LIST, OPEN_OBJECT, CLOSE_OBJECT] = [34, 92, 44, 91, 93, 123, 125];

/**
 * Counts from the structure alone (a list's elements, an object's members: one value each, plus
 * the root) until `items` passes `maxItems` or `values` passes `maxValues`; exact for
 * well-formed JSON, and malformed text is left to `JSON.parse` to refuse.
 */
export function measureJson(text: string, limits: { maxItems: number; maxValues: number }): JsonSize {
  const list = /^\s*\[\s*[^\s\]]/.test(text.slice(0, 64));
  let [depth, deepest, items, values, inString] = [0, 0, list ? 1 : 0, 1, false];
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_LIST || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (text.charCodeAt(nextNonSpace(text, i + 1)) !== (c === OPEN_LIST ? CLOSE_LIST : CLOSE_OBJECT)) values += 1;
    } else if (c === CLOSE_LIST || c === CLOSE_OBJECT) depth -= 1;
    else if (c === COMMA) {
      values += 1;
      if (list && depth === 1) items += 1;
    } else continue;
    if (items > limits.maxItems || values > limits.maxValues) break;
  }
  return { items, values, depth: deepest };
}

function nextNonSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text.charCodeAt(i) <= 32)) i += 1;
  return i;
}
