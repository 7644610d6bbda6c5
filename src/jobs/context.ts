import { AppError, NotFoundError } from '../core/errors.js';
import { createObjects, deleteObject, updateObject } from '../ops/crud.js';
import { getRow, listRows } from '../ops/read.js';
import { serialize } from '../ops/serialize/index.js';
import { appendLog } from './results.js';
import type { ResolvedModel, Row } from '../core/registry/types.js';
import type { Registry } from '../core/registry/registry.js';
import type { Params } from '../ops/filters/apply.js';
import type { RequestContext, Services } from '../ops/services.js';
import type { ApiObject, JobLogger, JobOps, LogLevel, LogOptions } from './contract.js';

/** An operation a job called failed as the API would answer: `status` and `body` are the API's. */
export class JobOpsError extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super(`${status}: ${JSON.stringify(body)}`);
    this.name = 'JobOpsError';
  }
}

/** Runs an operation; the API's errors become a JobOpsError carrying the API's answer. */
async function asJob<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw new JobOpsError(err.status, err.body);
    throw err;
  }
}

function toParams(filters: Record<string, unknown> = {}): Params {
  const params: Params = new Map();
  for (const [key, value] of Object.entries(filters)) {
    const values = (Array.isArray(value) ? value : [value]).map((v) => (v === null ? 'null' : String(v)));
    params.set(key, values);
  }
  return params;
}

/** A model by its id (`dcim.device`, `contenttypes.contenttype`). */
export function findModel(registry: Registry, name: string): ResolvedModel | undefined {
  return registry.find(name);
}

/** The operations of a job, in the job's request context (user, change context, request id). */
export function buildJobOps(services: Services, rc: RequestContext): JobOps {
  const model = (id: string): ResolvedModel => {
    const found = findModel(services.registry, id);
    if (!found) throw new JobOpsError(404, { detail: `Unknown model "${id}".` });
    return found;
  };
  const render = async (m: ResolvedModel, rows: Row[]) => (await serialize(services, services.dialect.db, m, rows, { depth: 0, baseUrl: rc.baseUrl })) as ApiObject[];
  return {
    create: (id, data) => asJob(async () => (await render(model(id), await createObjects(services, rc, model(id), data)))[0]),
    createMany: (id, data) => asJob(async () => render(model(id), await createObjects(services, rc, model(id), data))),
    update: (id, key, data) => asJob(async () => (await render(model(id), [await updateObject(services, rc, model(id), key, new Map(), data, true)]))[0]),
    delete: (id, key) => asJob(() => deleteObject(services, rc, model(id), key, new Map())),
    list: (id, filters, opts = {}) => asJob(async () => {
      const { rows } = await listRows(services, rc, model(id), { params: toParams(filters), limit: opts.limit ?? null, offset: opts.offset ?? 0 });
      return render(model(id), rows);
    }),
    get: (id, key) => asJob(async () => {
      try {
        return (await render(model(id), [await getRow(services, rc, model(id), key, new Map(), 'view', services.dialect.db)]))[0];
      } catch (err) {
        if (err instanceof NotFoundError) return null;
        throw err;
      }
    }),
  };
}

/** The UI path of an object from its API URL (`.../api/dcim/devices/<id>/` -> `/dcim/devices/<id>/`). */
function absoluteUrl(url: unknown): string {
  if (typeof url !== 'string') return '';
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '');
  return path.startsWith('/api/') ? path.slice(4) : path;
}

const LEVELS: LogLevel[] = ['debug', 'info', 'success', 'warning', 'failure', 'error', 'critical'];

/** A logger whose entries are job log entries of `jobResultId`. */
export function buildJobLogger(services: Services, jobResultId: string): JobLogger {
  const log = (level: LogLevel) => async (message: string, opts: LogOptions = {}) => {
    const object = opts.object ?? null;
    await appendLog(services, jobResultId, {
      level, message: String(message), grouping: opts.grouping,
      log_object: object ? String(object.display ?? object.name ?? '') : '', absolute_url: object ? absoluteUrl(object.url) : '',
    });
  };
  return Object.fromEntries(LEVELS.map((level) => [level, log(level)])) as JobLogger;
}
