/**
 * JSON documents encoded ahead of the store: a value of a JSON column that is already text is
 * written as it is (dialects call `encodeJson`), so many snapshots that share nested objects are
 * stringified by `SharedJson` with each shared object encoded once.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A JSON column's value as the driver takes it: text already encoded, or the value stringified. */
export function encodeJson(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value);
}

/** Characters outside Latin-1: one of them makes a JavaScript string two bytes per character. */
const WIDE = /[\u0100-\uffff]/g;
const WIDE_TEST = /[\u0100-\uffff]/;

/**
 * JSON text with characters above U+00FF written as `\uXXXX` escapes: the same document, held
 * and sent one byte per character (a single "→" in a display doubles a whole snapshot's size).
 */
function narrow(text: string): string {
  return WIDE_TEST.test(text) ? text.replace(WIDE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

/**
 * Stringifies objects whose values are often the same nested objects (the depth-1 snapshots of
 * one write share their related objects): each nested object or array member is encoded once
 * per instance and its text reused. The texts equal `JSON.stringify`'s but for the escapes of
 * `narrow`. Lives as long as the objects it has seen may come again (one write).
 */
export class SharedJson {
  private readonly memo = new Map<object, string>();

  /** `value`'s JSON text. */
  text(value: Record<string, unknown>): JsonText {
    let out = '{';
    for (const key of Object.keys(value)) {
      const part = this.part(value[key]);
      if (part === undefined) continue;
      out += `${out.length > 1 ? ',' : ''}${narrow(JSON.stringify(key))}:${part}`;
    }
    return new JsonText(`${out}}`);
  }

  private part(value: unknown): string | undefined {
    if (value === null || typeof value !== 'object') {
      const text = JSON.stringify(value);
      return text === undefined ? undefined : narrow(text);
    }
    if (Array.isArray(value)) return `[${value.map((item) => (item !== null && typeof item === 'object' ? this.shared(item) : (this.part(item) ?? 'null'))).join(',')}]`;
    return this.shared(value);
  }

  private shared(value: object): string {
    let text = this.memo.get(value);
    if (text === undefined) {
      text = narrow(JSON.stringify(value));
      this.memo.set(value, text);
    }
    return text;
  }
}
