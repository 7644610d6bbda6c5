import { STRING_LOOKUPS, fail, ok } from './kind.js';
import type { KindBehaviour } from './kind.js';
import type { ResolvedField } from '../registry/types.js';

type Choice = NonNullable<ResolvedField['choices']>[number];

/** Each choice list by its values' text (the first choice of a text wins): a render looks its value up once, not along the list (time zones hold hundreds). */
const byText = new WeakMap<readonly Choice[], Map<string, Choice>>();

/** The choice whose value is `value` or reads as the same text (as `find` along the list would give). */
function findChoice(field: ResolvedField, value: unknown): Choice | undefined {
  const choices = field.choices;
  if (!choices) return undefined;
  let index = byText.get(choices);
  if (!index) {
    index = new Map();
    for (const choice of choices) if (!index.has(String(choice[0]))) index.set(String(choice[0]), choice);
    byText.set(choices, index);
  }
  return index.get(String(value));
}

/** Choice fields take the raw value or `{value}`; render `{value, label}` or the bare value. */
export const choiceKind: KindBehaviour = {
  storage: 'text',
  optionsType: 'choice',
  lookups: STRING_LOOKUPS,
  parse(value, field) {
    const raw = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { value?: unknown }).value : value;
    if (Array.isArray(raw) || (raw !== null && typeof raw === 'object')) return fail(`${JSON.stringify(raw)} is not a valid choice.`);
    if (raw === '' && field.blank) return ok('');
    const match = findChoice(field, raw);
    return match ? ok(match[0]) : fail(`${String(raw)} is not a valid choice.`);
  },
  render(value, field) {
    if (value === null || value === undefined) return null;
    const match = findChoice(field, value);
    // A bare-value field renders as DRF's plain ChoiceField (an empty value stays ''); Nautobot's ChoiceField renders it null.
    if (!match) return field.render_as === 'value' ? value : value === '' ? null : { value, label: String(value) };
    return field.render_as === 'value' ? match[0] : { value: match[0], label: match[1] };
  },
  parseFilter(raw) {
    return ok(raw);
  },
  /** Stored as text in every dialect (SQLite would keep an integer choice such as 19 as '19.0'). */
  encode(value) {
    return String(value);
  },
};
