import { fileBytes, saveFile } from './files.js';
import type { Exec } from '../db/store.js';
import type { Services } from '../ops/services.js';
import type { JobDefinition, JobLogger, VariableSpec } from './contract.js';

/**
 * FileVar uploads between the run request and the run, as the reference keeps them: each file is
 * a file proxy row (no job result) whose id is the variable's value in the stored inputs and
 * `task_kwargs`; the run gets `{name, content}` back and the proxies are deleted when it ends.
 */
type Upload = { name: string; content: string | Uint8Array };

/** Whether a FileVar value is a file as the run request gives it (multipart, or `{name, content}` in JSON). */
export function isUpload(value: unknown): value is Upload {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const { name, content } = value as Record<string, unknown>;
  return typeof name === 'string' && (typeof content === 'string' || content instanceof Uint8Array);
}

function fileVariables(variables: Record<string, VariableSpec> | undefined, data: Record<string, unknown>): string[] {
  return Object.entries(variables ?? {}).filter(([name, spec]) => spec.type === 'FileVar' && data[name] !== null && data[name] !== undefined).map(([name]) => name);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The FileVar variables of stored data holding a file proxy id (a run queued before uploads were proxies holds the file itself). */
function proxiedVariables(def: JobDefinition, data: Record<string, unknown>): string[] {
  return fileVariables(def.variables, data).filter((n) => typeof data[n] === 'string');
}

/** Saves each uploaded file as a file proxy (in `exec`, the transaction recording the run); returns the data with their ids. */
export async function storeUploads(services: Services, exec: Exec, variables: Record<string, VariableSpec>, data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out = { ...data };
  for (const name of fileVariables(variables, data)) {
    const upload = data[name];
    if (isUpload(upload)) out[name] = await saveFile(services, { jobResultId: null, name: upload.name, content: upload.content }, exec);
  }
  return out;
}

/** Thrown when an upload's file proxy is gone (a recurring schedule's second run, as the reference's DoesNotExist). */
export class UploadMissing extends Error {
  name = 'DoesNotExist';
}

/** The data with each FileVar's file proxy id replaced by the file, `{name, content}` (text). */
export async function openUploads(services: Services, def: JobDefinition, data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const names = proxiedVariables(def, data);
  if (names.length === 0) return data;
  const ids = names.map((n) => String(data[n])).filter((id) => UUID.test(id));
  const rows = ids.length > 0 ? await services.store.byIds(services.dialect.db, services.registry.get('extras.fileproxy'), ids) : [];
  const out = { ...data };
  for (const name of names) {
    const row = rows.find((r) => r.id === String(data[name]));
    if (!row) throw new UploadMissing(`FileProxy matching query does not exist (var ${name}: ${String(data[name])}).`);
    out[name] = { name: String(row.name), content: fileBytes(row).toString('utf8') };
  }
  return out;
}

/** Deletes the file proxies of a run's uploads once it ended (the reference's cleanup after run_job). */
export async function dropUploads(services: Services, logger: JobLogger, def: JobDefinition, data: Record<string, unknown>): Promise<void> {
  const ids = proxiedVariables(def, data).map((n) => String(data[n])).filter((id) => UUID.test(id));
  if (ids.length === 0) return;
  const model = services.registry.get('extras.fileproxy');
  const rows = await services.store.byIds(services.dialect.db, model, ids);
  if (rows.length > 0) await services.store.deleteIds(services.dialect.db, model, rows.map((r) => String(r.id)));
  await logger.debug(`Deleted ${rows.length} file proxies`, { grouping: 'post_run' });
}
