import { RadioProfileChannelWidthChoices } from './choices.js';
import type { Rule } from '../../core/registry/types.js';

const WIDTHS = new Set(RadioProfileChannelWidthChoices.map(([value]) => value));

/** A list (or null) of integers, as the reference's ListField of IntegerField; the message for the first bad entry. */
function listProblem(value: unknown, accept: (item: unknown) => boolean, message: (item: unknown) => string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value)) return `Expected a list of items but got type "${typeof value === 'string' ? 'str' : typeof value === 'number' ? 'int' : 'dict'}".`;
  const bad = value.find((item) => !accept(item));
  return bad === undefined ? undefined : message(bad);
}

/** `channel_width`: a list of the reference's widths (20, 40, 80, 160). */
export const channelWidthsAreChoices: Rule = ({ row }): Record<string, string> | undefined => {
  const problem = listProblem(row.channel_width, (w) => WIDTHS.has(w as number), (w) => `"${String(w)}" is not a valid choice.`);
  return problem ? { channel_width: problem } : undefined;
};

/** `allowed_channel_list`: a list of integers. */
export const channelsAreIntegers: Rule = ({ row }): Record<string, string> | undefined => {
  const problem = listProblem(row.allowed_channel_list, (c) => Number.isInteger(c), () => 'A valid integer is required.');
  return problem ? { allowed_channel_list: problem } : undefined;
};
