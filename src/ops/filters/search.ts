import { ALWAYS } from './lookups.js';
import { lookupClause } from '../lookup-clause.js';
import { or } from '../../db/query/sql-helpers.js';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { ResolvedModel, ResolvedSearch, SearchTerm } from '../../core/registry/types.js';
import type { FilterDef } from './filter-set.js';
import type { Services } from '../services.js';

/** Python's whitespace (`str.strip`, `int()`): JavaScript's `trim` differs on U+001C-U+001F and U+FEFF. */
const PY_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

const strip = (term: string): string => term.replace(PY_STRIP, '');

/** Python's `int(term)`: optional sign, digits with single underscores between them, whitespace around. */
function toInteger(term: string): string | undefined {
  const text = strip(term);
  if (!/^[+-]?\d+(_\d+)*$/.test(text)) return undefined;
  return BigInt(text.replace(/_/g, '')).toString();
}

/** Python's `uuid.UUID(term)`: 32 hex digits, hyphens anywhere, optionally in braces or after `urn:uuid:`. */
export function toUuidTerm(term: string): string | undefined {
  const hex = term.replace(/urn:/g, '').replace(/uuid:/g, '').replace(/^[{}]+|[{}]+$/g, '').replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) return undefined;
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The term as one predicate compares it (the reference's preprocessors); undefined leaves the predicate out. */
const PREPARE: Record<SearchTerm, (term: string) => string | undefined> = {
  raw: (term) => term,
  strip,
  int: toInteger,
  uuid: toUuidTerm,
};

function predicateClause(services: Services, model: ResolvedModel, predicate: ResolvedSearch, term: string): Clause[] {
  const value = PREPARE[predicate.term](term);
  if (value === undefined) return [];
  return [lookupClause(services.registry, model, `${predicate.path}__${predicate.lookup}`, value, { ilike: services.dialect.ilike })];
}

/**
 * `q`: the model's search predicates ORed (registry `search`), each through its path (related
 * objects by subquery, so the list stays one statement). The last value counts; an empty one
 * filters nothing, a blank one is searched as it is (the reference's SearchFilter).
 */
export function searchFilter(model: ResolvedModel): FilterDef | undefined {
  const predicates = model.search;
  if (!predicates) return undefined;
  return {
    lookups: new Set(),
    async build({ services }, _lookup, values) {
      const term = values[values.length - 1] ?? '';
      if (term === '') return ALWAYS;
      return or(predicates.flatMap((predicate) => predicateClause(services, model, predicate, term)));
    },
  };
}
