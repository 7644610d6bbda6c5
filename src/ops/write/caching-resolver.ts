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
    }
    return answer;
  }
}
