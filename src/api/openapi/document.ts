import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { ref } from './field-schemas.js';
import { buildComponentNames, buildModelSchemas } from './model-schemas.js';
import { buildAppPaths } from './app-paths.js';
import { buildDetailPath, buildListPath, buildNotesPath, byLookupField, lookupPath } from './paths.js';
import type { Registry } from '../../core/registry/registry.js';
import type { ModelExtensions } from '../../ops/extensions.js';
import type { ApiRoute } from './app-paths.js';
import type { Schema } from './field-schemas.js';
import type { SchemaNames } from './model-schemas.js';
import type { PathItem } from './paths.js';

/** An OpenAPI 3.0 document. */
export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, PathItem> };

/** What the API says about CSV, including what CSV cannot carry (api-behaviour.md section 12). */
const CSV_NOTE = [
  'Source of truth and network automation platform (REST API compatible with Nautobot 2.x).',
  '',
  'CSV: `?format=csv` or `Accept: text/csv` exports a list (every filtered row, unpaginated) or one object;',
  'related objects appear as natural-key columns (`status__name`, `parent__name`, ...), `NoObject` marks a missing',
  'related object and `NULL` a null value. `POST` with `Content-Type: text/csv` creates one object per row (all or',
  'none); `PUT`/`PATCH` on a list update by the `id` column. CSV cannot carry relationships, computed fields,',
  'many-to-many fields other than tags and content types, or the difference between blank and null for nullable',
  'text; `relationships`, `computed_fields` and `custom_fields` columns are refused with 400 (use `cf_<key>` columns).',
].join('\n');

/** Schemas and responses every model's operations share. */
const SHARED_SCHEMAS: Record<string, Schema> = {
  ObjectReference: {
    type: 'object',
    description: 'A related object: `{id, object_type, url}`, or the whole object when `depth` > 0.',
    required: ['id', 'object_type', 'url'],
    properties: { id: { type: 'string', format: 'uuid' }, object_type: { type: 'string' }, url: { type: 'string', format: 'uri' } },
    additionalProperties: true,
  },
  RelatedObjectRequest: {
    description: 'A related object named by UUID, URL, composite natural key, `{id}`, or a dictionary of its attributes.',
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
  },
  BulkDeleteRequest: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
  ErrorDetail: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
  FieldErrors: { type: 'object', description: 'Field name (or `non_field_errors`) -> messages.', additionalProperties: {} },
  Links: { type: 'object', additionalProperties: { type: 'string', format: 'uri' } },
};

const detail = (description: string) => ({ description, content: { 'application/json': { schema: ref('ErrorDetail') } } });

const SHARED_RESPONSES = {
  BadRequest: {
    description: 'Invalid request: field errors (a list of them, one per item, for bulk writes) or a detail message.',
    content: { 'application/json': { schema: { oneOf: [ref('FieldErrors'), { type: 'array', items: ref('FieldErrors') }, ref('ErrorDetail')] } } },
  },
  Forbidden: detail('Not authenticated, or not permitted.'),
  NotFound: detail('No such object.'),
  Conflict: detail('Deletion blocked by dependent objects.'),
  UnsupportedMediaType: detail('Request body media type not supported.'),
};

const SECURITY_SCHEMES = {
  tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'API token, sent as `Token <key>`.' },
};

/** `/`, `/<app>/` and `/status/`: the API roots. */
function rootPaths(registry: Registry): Record<string, PathItem> {
  const root = (id: string, summary: string, tag: string) => ({ get: { operationId: id, summary, tags: [tag], responses: { 200: { description: '', content: { 'application/json': { schema: ref('Links') } } }, 403: { $ref: '#/components/responses/Forbidden' } } } });
  const out: Record<string, PathItem> = { '/': root('api_root', 'Links to every application API root.', 'api') };
  for (const app of registry.apps) out[`/${app}/`] = root(`${app}_api_root`, `Links to the ${app} endpoints.`, app);
  out['/status/'] = { get: { operationId: 'status_retrieve', summary: 'Service status and versions.', tags: ['status'], responses: { 200: { description: '', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } }, 403: { $ref: '#/components/responses/Forbidden' } } } };
  return out;
}

/**
 * What the document is derived from: the frozen registry, the apps' extensions (extension
 * filters) and the routes registered under /api/ (extra endpoints carry their description).
 */
export type DocumentSource = { registry: Registry; extensions: ReadonlyMap<string, readonly ModelExtensions[]>; routes: readonly ApiRoute[] };

/** Extensions of a model id: its own, then the global ones (as the filters apply them). */
function extensionsOf(source: DocumentSource, modelId: string): readonly ModelExtensions[] {
  return [...(source.extensions.get(modelId) ?? []), ...(source.extensions.get('*') ?? [])];
}

/** The detail paths again on the model's lookup field (`/extras/jobs/{name}/`, as the reference's by-name view set). */
function byLookup(detail: Record<string, PathItem>, field: string): Record<string, PathItem> {
  return Object.fromEntries(Object.entries(detail).map(([path, item]) => [lookupPath(path, field), byLookupField(item, field)]));
}

/** Paths and component schemas of every registered model. */
function modelParts(source: DocumentSource, names: Map<string, SchemaNames>): { paths: Record<string, PathItem>; schemas: Record<string, Schema> } {
  const { registry } = source;
  const paths: Record<string, PathItem> = {};
  const schemas: Record<string, Schema> = {};
  const note = registry.find('extras.note');
  for (const model of registry.models.filter((m) => !m.internal)) {
    const own = names.get(model.id)!;
    Object.assign(schemas, buildModelSchemas(model, own));
    paths[`/${model.app}/${model.path}/`] = buildListPath(model, own, extensionsOf(source, model.id));
    const detail: Record<string, PathItem> = { [`/${model.app}/${model.path}/{id}/`]: buildDetailPath(model, own) };
    if (note && model.features.has('notes')) detail[`/${model.app}/${model.path}/{id}/notes/`] = buildNotesPath(model, names.get(note.id)!.page, names.get(note.id)!.read);
    Object.assign(paths, detail, model.lookup_field ? byLookup(detail, model.lookup_field) : {});
  }
  return { paths, schemas };
}

/**
 * The OpenAPI 3 document of the API at `apiVersion`, derived from the registry, the extension
 * filters and the self-described extra endpoints: paths relative to `/api` (servers
 * `[{url: '/api'}]`, as the reference trims them).
 */
export function buildOpenApiDocument(source: DocumentSource, apiVersion: string): OpenApiDocument {
  const { registry } = source;
  const names = buildComponentNames(registry);
  const { paths, schemas } = modelParts(source, names);
  const appPaths = buildAppPaths({ registry, names, extensionsOf: (id) => extensionsOf(source, id) }, source.routes);
  return {
    openapi: '3.0.3',
    info: {
      title: 'API Documentation',
      version: apiVersion,
      description: CSV_NOTE,
      license: { name: 'Apache v2 License' },
    },
    servers: [{ url: '/api' }],
    security: [{ tokenAuth: [] }],
    tags: ['api', ...registry.apps, 'status'].map((name) => ({ name })),
    paths: { ...rootPaths(registry), ...paths, ...appPaths },
    components: { schemas: { ...SHARED_SCHEMAS, ...schemas }, responses: SHARED_RESPONSES, securitySchemes: SECURITY_SCHEMES },
  };
}

/** A rendered document: JSON and YAML text and a weak ETag over its content. */
export type RenderedDocument = { document: OpenApiDocument; json: string; yaml: () => string; etag: string };

/** JSON and (lazily) YAML text of a document, with a weak ETag over the JSON. */
export function renderDocument(document: OpenApiDocument): RenderedDocument {
  const json = JSON.stringify(document);
  let yaml: string | undefined;
  return {
    document,
    json,
    yaml: () => (yaml ??= stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 })),
    etag: `W/"${createHash('sha1').update(json).digest('hex')}"`,
  };
}

const cache = new WeakMap<DocumentSource, Map<string, RenderedDocument>>();

/** The document for a version, built once per source and version (the registry is frozen). */
export function getOpenApiDocument(source: DocumentSource, apiVersion: string): RenderedDocument {
  const perVersion = cache.get(source) ?? new Map<string, RenderedDocument>();
  cache.set(source, perVersion);
  const known = perVersion.get(apiVersion) ?? renderDocument(buildOpenApiDocument(source, apiVersion));
  perVersion.set(apiVersion, known);
  return known;
}
