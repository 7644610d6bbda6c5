import { ref } from './field-schemas.js';
import { ID_PARAMETER, byLookupField, errors, lookupPath } from './paths.js';
import { LIST_PARAMETERS, buildFilterParameters } from './parameters.js';
import type { Registry } from '../../core/registry/registry.js';
import type { ModelExtensions } from '../../ops/extensions.js';
import type { Schema } from './field-schemas.js';
import type { SchemaNames } from './model-schemas.js';
import type { Parameter } from './parameters.js';
import type { Operation, PathItem } from './paths.js';
import type { BodyDoc, OperationDoc, RouteDoc } from './route-doc.js';

/** A route registered under /api/ (Fastify URL syntax) and the description it carries. */
export type ApiRoute = { url: string; doc?: RouteDoc };

/** What the builder reads besides the route: schema names and filters per model id. */
export type AppPathContext = {
  registry: Registry;
  names: Map<string, SchemaNames>;
  extensionsOf: (modelId: string) => readonly ModelExtensions[];
};

/** `/api/ipam/prefixes/:key/available-ips/` -> `/ipam/prefixes/{id}/available-ips/` (the reference names it `id`). */
export function toOpenApiPath(url: string): string {
  return url.replace(/^\/api/, '').replace(/:key\b/g, '{id}').replace(/:(\w+)/g, '{$1}');
}

function toSchema(ctx: AppPathContext, body: BodyDoc): Schema {
  if ('schema' in body) return body.schema;
  const names = ctx.names.get(ctx.registry.get(body.model).id)!;
  const one = ref(body.write ? names.create : names.read);
  if (body.many === 'array') return { type: 'array', items: one };
  if (body.many === 'either') return { oneOf: [one, { type: 'array', items: one }] };
  if (body.many === 'page') return body.write ? { type: 'array', items: one } : ref(names.page);
  return one;
}

function queryParameters(ctx: AppPathContext, doc: OperationDoc): Parameter[] {
  const own = Object.entries(doc.query ?? {}).map(([name, q]) => ({ name, in: 'query', required: q.required ?? false, schema: q.schema, ...(q.description ? { description: q.description } : {}) }));
  const model = doc.filtersOf ? ctx.registry.get(doc.filtersOf) : undefined;
  const filters = model ? buildFilterParameters(model, ctx.extensionsOf(model.id)).filter((p) => !doc.query?.[p.name as string]) : [];
  return [...own, ...filters, ...(doc.paging ? LIST_PARAMETERS : [])];
}

const VERB_ACTIONS: Record<string, string> = { post: 'create', put: 'update', patch: 'partial_update', delete: 'destroy' };

/** `dcim_console_connections_list`, `ipam_prefixes_available_ips_create`, ... as the reference names them. */
function operationId(path: string, verb: string, doc: OperationDoc): string {
  const words = path.split('/').filter((p) => p && !p.startsWith('{')).map((p) => p.replace(/[-.]/g, '_'));
  const body = doc.ok[1];
  const many = body && !('schema' in body) && (body.many === 'array' || body.many === 'page');
  const action = doc.action ?? VERB_ACTIONS[verb] ?? (many ? 'list' : 'retrieve');
  return [...words, action].join('_');
}

function toOperation(ctx: AppPathContext, path: string, verb: string, doc: OperationDoc): Operation {
  const [status, body] = doc.ok;
  const op: Operation = {
    operationId: operationId(path, verb, doc),
    summary: doc.summary,
    tags: [path.split('/')[1]],
    responses: {
      [String(status)]: body ? { description: '', content: { 'application/json': { schema: toSchema(ctx, body) } } } : { description: 'No response body' },
      ...errors(...new Set([403, ...(doc.errors ?? [])])),
    },
  };
  const params = queryParameters(ctx, doc);
  if (params.length > 0) op.parameters = params;
  if (doc.body) op.requestBody = { required: true, content: { 'application/json': { schema: toSchema(ctx, doc.body) }, ...(doc.form ? { 'multipart/form-data': { schema: toSchema(ctx, doc.form) } } : {}) } };
  return op;
}

/** Model ids a description names: an unknown one is a mistake in the route file, reported at start-up. */
export function checkRouteDoc(registry: Registry, url: string, doc: RouteDoc): void {
  for (const [verb, op] of Object.entries(doc)) {
    const named = [op.filtersOf, ...[op.body, op.ok[1]].map((b) => (b && 'model' in b ? b.model : undefined))];
    const unknown = named.find((id) => id !== undefined && !registry.find(id));
    if (unknown) throw new Error(`OpenAPI description of ${verb.toUpperCase()} ${url} names an unknown model "${unknown}"`);
  }
}

/** The path items of the extra endpoints that describe themselves (`config.openapi` on the route). */
export function buildAppPaths(ctx: AppPathContext, routes: readonly ApiRoute[]): Record<string, PathItem> {
  const out: Record<string, PathItem> = {};
  for (const { url, doc } of routes) {
    if (!doc) continue;
    const path = toOpenApiPath(url);
    const item: PathItem = path.includes('{id}') ? { parameters: [ID_PARAMETER] } : {};
    for (const [verb, opDoc] of Object.entries(doc)) item[verb] = toOperation(ctx, path, verb, opDoc);
    out[path] = item;
    // An endpoint of a model addressed by another field too (`jobs/{name}/run/`) is listed on both.
    const field = path.includes('{id}') ? ctx.registry.models.find((m) => path.startsWith(`/${m.app}/${m.path}/{id}/`))?.lookup_field : undefined;
    if (field) out[lookupPath(path, field)] = byLookupField(item, field);
  }
  return out;
}
