import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'graphql';
import { filesIn, foldersIn, readEach } from './contents.js';
import type { ContentRead } from './contents.js';

/** Media types by file extension (what Python's `mimetypes` answers for the usual template kinds; others are text/plain as the reference's default). */
const MIME_TYPES: Record<string, string> = {
  csv: 'text/csv', html: 'text/html', htm: 'text/html', json: 'application/json', md: 'text/markdown', txt: 'text/plain', xml: 'application/xml', yaml: 'application/yaml', yml: 'application/yaml',
};

/** Export templates: `export_templates/<app_label>/<model>/<file>`, named by the file, for models the service knows. */
export function readExportTemplates(folder: string, isModel: (contentType: string) => boolean): ContentRead {
  const dir = path.join(folder, 'export_templates');
  const files = foldersIn(dir).flatMap((app) => foldersIn(path.join(dir, app)).flatMap((model) => filesIn(path.join(dir, app, model)).map((f) => ({ file: path.join(dir, app, model, f), shown: `${app}/${model}/${f}` }))));
  return readEach(files, (file) => {
    const [app, model, name] = path.relative(dir, file).split(path.sep);
    const contentType = `${app}.${model}`;
    if (!isModel(contentType)) throw new Error(`no model ${contentType}`);
    const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
    return [{ key: `${contentType}:${name}`, input: { content_type: contentType, name, template_code: readFileSync(file, 'utf8'), mime_type: MIME_TYPES[extension.toLowerCase()] ?? 'text/plain', file_extension: extension } }];
  }, (shown, message) => `Error in loading export template from \`${shown}\`: ${message}`);
}

/** GraphQL queries: `graphql_queries/<name>[.gql]`, each parsed before anything is written. */
export function readGraphQLQueries(folder: string): ContentRead {
  const dir = path.join(folder, 'graphql_queries');
  return readEach(filesIn(dir).map((f) => ({ file: path.join(dir, f), shown: f })), (file) => {
    const base = path.basename(file);
    const name = base.endsWith('.gql') ? base.slice(0, -4) : base;
    const query = readFileSync(file, 'utf8').trim();
    try {
      parse(query);
    } catch (err) {
      throw new Error(`Invalid GraphQL syntax for query '${name}'. Retaining the existing query. Error: ${(err as Error).message}`);
    }
    return [{ key: name, input: { name, query } }];
  }, (shown, message) => `Error processing GraphQL query file '${shown}': ${message}`);
}
