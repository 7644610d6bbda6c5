import { ReferenceResolver } from '../references/resolve-reference.js';
import type { ResolvedField } from '../../core/registry/types.js';
import type { Resolved } from '../references/resolve-reference.js';

/**
 * A reference resolver for one write: a value given for the same field by several objects
 * (`"status": "Active"`, `"location_type": {"name": "Room"}`, a tag name) is looked up once.
 * Nothing is written while a write's items are parsed, so the answer holds for all of them.
 */
export class CachingResolver extends ReferenceResolver {
  private readonly answers = new Map<string, Promise<Resolved>>();

  override resolve(field: ResolvedField, value: unknown): Promise<Resolved> {
    if (value === null || value === undefined || value === '') return super.resolve(field, value);
    const key = `${field.name}\u0000${JSON.stringify(value)}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = super.resolve(field, value);
      this.answers.set(key, answer);
    }
    return answer;
  }
}
