import { CronExpressionParser } from 'cron-parser';

/**
 * Why a crontab cannot be used, or null. As the reference, exactly five fields separated by
 * single spaces (minute, hour, day of month, month, day of week) with `*`, `,`, `-` and `/`;
 * the unpacking message is Python's, the others come from cron-parser.
 */
export function crontabError(text: string): string | null {
  const fields = text.split(' ');
  if (fields.length < 5) return `not enough values to unpack (expected 5, got ${fields.length})`;
  if (fields.length > 5) return 'too many values to unpack (expected 5)';
  if (fields.some((f) => !/^[0-9*,/-]+$/i.test(f) && !/^[a-z0-9*,/-]+$/i.test(f))) return `Invalid crontab: ${text}`;
  try {
    CronExpressionParser.parse(text, { tz: 'UTC' });
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The first occurrence of `text` strictly after `after` (UTC). */
export function nextOccurrence(text: string, after: Date): Date {
  return CronExpressionParser.parse(text, { currentDate: after, tz: 'UTC' }).next().toDate();
}

/** The last occurrence of `text` at or before `at` (UTC). */
export function previousOccurrence(text: string, at: Date): Date {
  return CronExpressionParser.parse(text, { currentDate: new Date(at.getTime() + 1), tz: 'UTC' }).prev().toDate();
}
