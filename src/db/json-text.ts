/**
 * A JSON column value already encoded by the caller (`Store` binds its text as it is), for
 * values whose encoding the caller can do cheaper than `JSON.stringify`, e.g. with `SharedJson`.
 */
export class JsonText {
  constructor(readonly text: string) {}

  /** As a JSON-encoded value in memory (`JSON.stringify`, a `JSON.parse` round trip) it is its text's value. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * JSON text of many values that share nested objects (a bulk write's snapshots all holding the
 * same related objects, rendered once): each shared object is encoded once and its text reused.
 * Top-level keys and top-level arrays are walked; any other object is one `JSON.stringify` call,
 * cached by identity. The text equals `JSON.stringify(value)` for plain JSON data.
 */
export class SharedJson {
  private readonly texts = new WeakMap<object, string>();

  text(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map((v) => this.member(v) ?? 'null').join(',')}]`;
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    const parts: string[] = [];
    for (const key of Object.keys(value)) {
      const member = this.member((value as Record<string, unknown>)[key]);
      if (member !== undefined) parts.push(`${JSON.stringify(key)}:${member}`);
    }
    return `{${parts.join(',')}}`;
  }

  /** One member's text (undefined for what JSON leaves out); nested objects come from the cache. */
  private member(value: unknown): string | undefined {
    if (Array.isArray(value)) return `[${value.map((v) => this.nested(v) ?? 'null').join(',')}]`;
    return this.nested(value);
  }

  private nested(value: unknown): string | undefined {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    let text = this.texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      this.texts.set(value, text);
    }
    return text;
  }
}
