import { ReferenceResolver } from '../references/resolve-reference.js';
import type { ResolvedField } from '../../core/registry/types.js';
import type { Resolved } from '../references/resolve-reference.js';

/**
 * A reference resolver for one write: a value given for the same field by several objects
 * (`"status": "Active"`, `"location_type": {"name": "Room"}`, a tag name) is looked up once.
 * Nothing is written while a write's items are parsed, so the answer holds for all of them.
 */
export class CachingResolver extends ReferenceResolver {
  /** Per field: answers to string values (by the string) and to others (by their JSON). */
  private readonly answers = new Map<ResolvedField, { strings: Map<string, Promise<Resolved>>; others: Map<string, Promise<Resolved>> }>();
  /** The same answers once they arrived (`cached`), by field and key. */
  private readonly settled = new Map<ResolvedField, Map<string, Resolved>>();

  override resolve(field: ResolvedField, value: unknown): Promise<Resolved> {
    if (value === null || value === undefined || value === '') return super.resolve(field, value);
    let known = this.answers.get(field);
    if (!known) {
      known = { strings: new Map(), others: new Map() };
      this.answers.set(field, known);
    }
    const [cache, key] = typeof value === 'string' ? [known.strings, value] : [known.others, JSON.stringify(value)];
    let answer = cache.get(key);
    if (!answer) {
      answer = super.resolve(field, value);
      cache.set(key, answer);
      answer.then((resolved) => this.settledOf(field).set(key, resolved), () => undefined);
    }
    return answer;
  }

  /**
   * An answer already given for this value, without waiting: the objects of a bulk write name
   * the same few related objects over and over, and each wait is a promise (and, under the
   * transaction guard's async context, a hook call) per field per object.
   */
  override cached(field: ResolvedField, value: unknown): Resolved | undefined {
    if (value === null || value === undefined || value === '') return super.cached(field, value);
    if (typeof value !== 'string') return undefined;
    return this.settled.get(field)?.get(value);
  }

  private settledOf(field: ResolvedField): Map<string, Resolved> {
    let map = this.settled.get(field);
    if (!map) {
      map = new Map();
      this.settled.set(field, map);
    }
    return map;
  }
}
