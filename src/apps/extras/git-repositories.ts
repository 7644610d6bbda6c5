import { slugify } from '../../core/natural-key.js';
import { GitRepositoryProvidedContentsChoices } from './choices.js';
import type { Rule, SaveContext } from '../../core/registry/types.js';

const KNOWN = new Set(GitRepositoryProvidedContentsChoices.map(([value]) => String(value)));

/** `provided_contents` is a list of the offered content kinds (a multiple-choice field). */
export const providedContentsChoices: Rule = ({ row }) => {
  const given = row.provided_contents;
  if (!Array.isArray(given)) return { provided_contents: `Expected a list of items but got type "${given === null ? 'NoneType' : typeof given === 'string' ? 'str' : 'dict'}".` };
  const bad = given.find((v) => !KNOWN.has(String(v)));
  if (bad !== undefined) return { provided_contents: `"${String(bad)}" is not a valid choice.` };
};

/**
 * Before save: `provided_contents` sorted and without duplicates, as the reference stores it,
 * and an empty slug filled from the name with underscores for dashes (reference AutoSlugField).
 */
export function fillGitRepository({ row }: SaveContext): void {
  if (Array.isArray(row.provided_contents)) row.provided_contents = [...new Set(row.provided_contents.map(String))].sort();
  if (!row.slug && typeof row.name === 'string') row.slug = slugify(row.name).replace(/-/g, '_');
}
