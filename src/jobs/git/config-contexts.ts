import path from 'node:path';
import { filesIn, readDataFile, readEach, recordsOf } from './contents.js';
import type { ContentRead, OwnedItem } from './contents.js';

/** The scope folders of `config_contexts/<scope>/<name>.(json|yaml)`, as the reference's. */
const SCOPES = ['locations', 'device_types', 'roles', 'platforms', 'cluster_groups', 'clusters', 'tenant_groups', 'tenants', 'tags', 'dynamic_groups', 'device_redundancy_groups'];

/** A config context's API input from a record: `_metadata` (defaults as the reference's) plus the rest as its data. */
function contextInput(record: Record<string, unknown>): OwnedItem {
  const { _metadata, ...data } = record;
  const meta: Record<string, unknown> = { weight: 1000, description: '', is_active: true, ...(_metadata as Record<string, unknown>) };
  const { schema, config_context_schema: schemaName = schema, ...rest } = meta;
  const input: Record<string, unknown> = { ...rest, config_context_schema: schemaName ? { name: schemaName } : null, data };
  return { key: String(meta.name), input };
}

/** Config contexts: the files of `config_contexts/`, then those of its scope folders (the scope implied by the folder and file name). */
export function readConfigContexts(folder: string): ContentRead {
  const dir = path.join(folder, 'config_contexts');
  const describe = (shown: string, message: string) => `Error in loading config context data from \`${shown}\`: ${message}`;
  const flat = readEach(filesIn(dir).map((f) => ({ file: path.join(dir, f), shown: f })), (file) => recordsOf(readDataFile(file)).map(contextInput), describe);
  for (const scope of SCOPES) {
    const scopeDir = path.join(dir, scope);
    const files = filesIn(scopeDir).map((f) => ({ file: path.join(scopeDir, f), shown: `${scope}/${f}` }));
    const scoped = readEach(files, (file) => {
      const name = path.basename(file, path.extname(file));
      const data = (readDataFile(file) ?? {}) as Record<string, unknown>;
      const meta = { ...(data._metadata as Record<string, unknown>) };
      meta[scope] = [...((meta[scope] as unknown[]) ?? []), scope === 'device_types' ? { model: name } : { name }];
      return recordsOf({ ...data, _metadata: meta }).map(contextInput);
    }, describe);
    flat.items.push(...scoped.items);
    flat.errors.push(...scoped.errors);
  }
  return flat;
}

/** Config context schemas: the files of `config_context_schemas/` (`_metadata` with name and description, and `data_schema`). */
export function readConfigContextSchemas(folder: string): ContentRead {
  const dir = path.join(folder, 'config_context_schemas');
  return readEach(filesIn(dir).map((f) => ({ file: path.join(dir, f), shown: f })), (file) => recordsOf(readDataFile(file)).map((record) => {
    const meta = record._metadata as Record<string, unknown>;
    if (record.data_schema === undefined) throw new Error('data is missing the required `data_schema` key.');
    return { key: String(meta.name), input: { name: meta.name, description: meta.description ?? '', data_schema: record.data_schema } };
  }), (shown, message) => `Error in loading config context schema data from \`${shown}\`: ${message}`);
}
