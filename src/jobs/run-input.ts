import { ValidationError } from '../core/errors.js';
import { JobExecutionType } from '../apps/extras/choices.js';

/** The `schedule` of a run request (the reference's JobCreationSerializer). */
export type ScheduleInput = { name?: string; start_time?: Date; interval: string; crontab?: string };

/** A run request's body once its shape is checked (the reference's JobInputSerializer). */
export type RunInput = { data: unknown; queue?: string; schedule?: ScheduleInput };

const INTERVALS = new Set(JobExecutionType.map(([v]) => String(v)));
/** Intervals that make a schedule (all but `immediately`). */
export const SCHEDULE_INTERVALS = new Set(['future', 'hourly', 'daily', 'weekly', 'custom']);

/** Seconds ahead of now a schedule must start, at least (reference ScheduledJob.earliest_possible_time). */
const EARLIEST_SECONDS = 15;

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'NoneType';
  return ({ string: 'str', number: Number.isInteger(value) ? 'int' : 'float', boolean: 'bool' } as Record<string, string>)[typeof value] ?? 'dict';
}

/** A DRF CharField: strings, and numbers as their text; anything else is refused. */
function charField(value: unknown): string | { error: string } {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return { error: 'Not a valid string.' };
}

function parseStart(value: unknown): Date | { error: string } {
  const text = typeof value === 'string' ? value.trim() : '';
  const date = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text) ? new Date(text.replace(' ', 'T')) : new Date(NaN);
  if (Number.isNaN(date.getTime())) return { error: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].' };
  return date;
}

/** Field checks of `schedule` (type and choice errors), before the cross-field rules. */
function scheduleFields(raw: Record<string, unknown>): { schedule: ScheduleInput; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const schedule: ScheduleInput = { interval: '' };
  if (raw.interval === undefined) errors.interval = ['This field is required.'];
  else if (!INTERVALS.has(String(raw.interval))) errors.interval = [`"${String(raw.interval)}" is not a valid choice.`];
  else schedule.interval = String(raw.interval);
  if (raw.name !== undefined) {
    const name = charField(raw.name);
    if (typeof name !== 'string') errors.name = [name.error];
    else if (name.length > 255) errors.name = ['Ensure this field has no more than 255 characters.'];
    else schedule.name = name;
  }
  if (raw.start_time !== undefined && raw.start_time !== null) {
    const start = parseStart(raw.start_time);
    if (start instanceof Date) schedule.start_time = start;
    else errors.start_time = [start.error];
  }
  if (raw.crontab !== undefined) {
    const crontab = charField(raw.crontab);
    if (typeof crontab !== 'string') errors.crontab = [crontab.error];
    else schedule.crontab = crontab;
  }
  return { schedule, errors };
}

/** The reference's JobCreationSerializer.validate: a name, a start time not in the past, a valid crontab. */
function scheduleRules(schedule: ScheduleInput, crontabError: (text: string) => string | null): Record<string, string[]> {
  if (!SCHEDULE_INTERVALS.has(schedule.interval)) return {};
  if (!schedule.name) return { name: ['Please provide a name for the job schedule.'] };
  const earliest = Date.now() + EARLIEST_SECONDS * 1000;
  if ((!schedule.start_time && schedule.interval !== 'custom') || (schedule.start_time && schedule.start_time.getTime() < earliest)) {
    return { start_time: ['Please enter a valid date and time greater than or equal to the current date and time.'] };
  }
  if (schedule.interval === 'custom') {
    if (schedule.crontab === undefined) return { crontab: ['Please enter a valid crontab.'] };
    const error = crontabError(schedule.crontab);
    if (error) return { crontab: [error] };
  }
  return {};
}

/** Reads a JSON run request; shape errors are a 400 as the reference's serializer answers them. */
export function parseRunInput(body: unknown, crontabError: (text: string) => string | null): RunInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(body ?? null)}.`] });
  const raw = body as Record<string, unknown>;
  const errors: Record<string, unknown> = {};
  const input: RunInput = { data: raw.data === undefined ? {} : raw.data };
  if (raw.data === null) errors.data = ['This field may not be null.'];
  const queues: Record<string, string> = {};
  for (const key of ['task_queue', 'job_queue'] as const) {
    if (raw[key] === undefined) continue;
    const value = raw[key] === null ? { error: 'This field may not be null.' } : charField(raw[key]);
    if (typeof value === 'string') queues[key] = value;
    else errors[key] = [value.error];
  }
  if (raw.schedule !== undefined) {
    if (!raw.schedule || typeof raw.schedule !== 'object' || Array.isArray(raw.schedule)) errors.schedule = { non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(raw.schedule)}.`] };
    else {
      const { schedule, errors: fieldErrors } = scheduleFields(raw.schedule as Record<string, unknown>);
      const ruleErrors = Object.keys(fieldErrors).length === 0 ? scheduleRules(schedule, crontabError) : {};
      if (Object.keys(fieldErrors).length + Object.keys(ruleErrors).length > 0) errors.schedule = { ...fieldErrors, ...ruleErrors };
      else input.schedule = schedule;
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  if (queues.task_queue && queues.job_queue) throw new ValidationError({ task_queue: 'task_queue and job_queue are both specified. Please specify only one or another.' });
  input.queue = queues.task_queue || queues.job_queue || undefined;
  return input;
}
