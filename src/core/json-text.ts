import { createHash } from 'node:crypto';

/**
 * JSON documents encoded ahead of the store: a value of a JSON column that is already text is
 * written as it is (dialects call `encodeJson`); the change log's snapshots come split into their
 * own text and their shared parts (`SnapshotSplitter`).
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

/** Where a split document's parts were: the part id per key, or per array member (null for a member kept inline). */
export type PartRefs = Record<string, string | (string | null)[]>;

/** A UUID-shaped id naming a part by its content. */
function partId(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Whether `item` is a part `isPart` picks: an object, not an array (module-level: no closure per document). */
function isPicked(item: unknown, isPart: (value: object) => boolean): item is object {
  return item !== null && typeof item === 'object' && !Array.isArray(item) && isPart(item);
}

function hasPicked(items: unknown[], isPart: (value: object) => boolean): boolean {
  for (const item of items) if (isPicked(item, isPart)) return true;
  return false;
}

/**
 * Encodes the documents of one write whose values are often the same nested objects (the
 * depth-1 snapshots of a bulk write share their related objects). A document is written member
 * by member (`member`, then `finish`): a value `isPart` picks (an object, or members of an array)
 * is left out of the document's text, null in its place, and named by content instead: a store
 * keeps each distinct part once however many documents hold it, and each part is encoded once
 * per write. Texts are `JSON.stringify`'s but for the escapes of `narrow`.
 */
export class SnapshotSplitter {
  private readonly ids = new Map<object, string>();
  private fresh = new Map<string, JsonText>();
  /** Where the parts of the document being written were, so far. */
  private parts: PartRefs | null = null;

  /**
   * The JSON text of the member `key` of the document being written (undefined: JSON leaves the
   * value out), its picked values as null; where they were is kept for `finish`.
   */
  member(key: string, value: unknown, isPart: (value: object) => boolean): string | undefined {
    if (isPicked(value, isPart)) {
      (this.parts ??= {})[key] = this.idOf(value);
      return 'null';
    }
    if (Array.isArray(value) && hasPicked(value, isPart)) {
      const ids = value.map((m) => (isPicked(m, isPart) ? this.idOf(m) : null));
      (this.parts ??= {})[key] = ids;
      return JSON.stringify(value.map((m, i) => (ids[i] === null ? m : null)));
    }
    return JSON.stringify(value);
  }

  /** The document made of its members' texts (`text`, `{...}`) and where its parts were; the next document starts empty. */
  finish(text: string): { text: JsonText; parts: PartRefs | null } {
    const parts = this.parts;
    this.parts = null;
    return { text: new JsonText(narrow(text)), parts };
  }

  /** The parts first seen since the last call, by id. */
  takeParts(): Map<string, JsonText> {
    const out = this.fresh;
    this.fresh = new Map();
    return out;
  }

  private idOf(value: object): string {
    let id = this.ids.get(value);
    if (id === undefined) {
      const text = narrow(JSON.stringify(value));
      id = partId(text);
      this.ids.set(value, id);
      this.fresh.set(id, new JsonText(text));
    }
    return id;
  }
}

/**
 * A split document made whole again: each key named in `parts` gets its part back (array
 * members too), the other values stay as stored. A part missing from `found` reads as null.
 */
export function joinParts(value: Record<string, unknown>, parts: PartRefs, found: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const ref = parts[key];
    if (ref === undefined) out[key] = value[key];
    else if (typeof ref === 'string') out[key] = found.get(ref) ?? null;
    else out[key] = ref.map((id, i) => (id === null ? (value[key] as unknown[])[i] : (found.get(id) ?? null)));
  }
  return out;
}
