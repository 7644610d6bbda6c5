import { imageFields } from '../../core/registry/image-fields.js';
import { ref } from './field-schemas.js';
import { FORMAT_PARAMETER, LIST_PARAMETERS, buildFilterParameters } from './parameters.js';
import type { ResolvedModel } from '../../core/registry/types.js';
import type { ModelExtensions } from '../../ops/extensions.js';
import type { Schema } from './field-schemas.js';
import type { SchemaNames } from './model-schemas.js';
import type { Parameter } from './parameters.js';

/** An OpenAPI Operation Object. */
export type Operation = Record<string, unknown>;
/** An OpenAPI Path Item Object. */
export type PathItem = Record<string, unknown>;

const CSV_TEXT = { 'text/csv': { schema: { type: 'string' } } };

/** JSON content, plus CSV where the endpoint speaks it (api-behaviour.md section 12). */
function content(schema: Schema, withCsv = true): Record<string, unknown> {
  return { 'application/json': { schema }, ...(withCsv ? CSV_TEXT : {}) };
}

export function errors(...codes: number[]): Record<string, unknown> {
  const names: Record<number, string> = { 400: 'BadRequest', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 415: 'UnsupportedMediaType' };
  return Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/${names[c]}` }]));
}

/** `form`: the one object a multipart/form-data body stands for (models with image fields take their files that way). */
type OpSpec = { id: string; summary: string; params?: readonly Parameter[]; body?: Schema; ok: [number, Schema | null]; csv?: boolean; form?: Schema };

function operation(model: ResolvedModel, spec: OpSpec, errorCodes: number[]): Operation {
  const [status, schema] = spec.ok;
  const op: Operation = {
    operationId: `${model.app}_${model.path.replace(/-/g, '_')}_${spec.id}`,
    summary: spec.summary,
    tags: [model.app],
    responses: { [String(status)]: schema ? { description: '', content: content(schema, spec.csv) } : { description: 'No response body' }, ...errors(...errorCodes) },
  };
  if (spec.params?.length) op.parameters = spec.params;
  if (spec.body) op.requestBody = { required: true, content: { ...content(spec.body, spec.csv), ...(spec.form && imageFields(model).length > 0 ? { 'multipart/form-data': { schema: spec.form } } : {}) } };
  return op;
}

const DETAIL_PARAMETERS = [FORMAT_PARAMETER, ...LIST_PARAMETERS.filter((p) => ['depth', 'exclude_m2m', 'include'].includes(p.name as string))];
export const ID_PARAMETER: Parameter = { name: 'id', in: 'path', required: true, description: 'A UUID, or a composite natural key (`name;parent`).', schema: { type: 'string' } };

/** `/<app>/<path>/`: list, and unless read-only bulk create, update, partial update, delete (a deletable read-only model: delete). */
export function buildListPath(model: ResolvedModel, names: SchemaNames, extensions: readonly ModelExtensions[] = []): PathItem {
  const plural = model.verbose_name_plural;
  const item: PathItem = {
    get: operation(model, { id: 'list', summary: `List ${plural} (filtered, paginated; all of them as CSV).`, params: [...buildFilterParameters(model, extensions), ...LIST_PARAMETERS, FORMAT_PARAMETER], ok: [200, ref(names.page)] }, [400, 403]),
  };
  const many = (name: string): Schema => ({ type: 'array', items: ref(name) });
  const bulkDestroy = () => operation(model, { id: 'bulk_destroy', summary: `Delete ${plural} named by id.`, body: many('BulkDeleteRequest'), ok: [204, null] }, [400, 403, 409]);
  if (model.read_only) return model.deletable ? { ...item, delete: bulkDestroy() } : item;
  if (model.creatable) item.post = operation(model, { id: 'create', summary: `Create one or more ${plural}.`, body: { oneOf: [ref(names.create), many(names.create)] }, form: ref(names.create), ok: [201, { oneOf: [ref(names.read), many(names.read)] }] }, [400, 403, 415]);
  item.put = operation(model, { id: 'bulk_update', summary: `Update ${plural} named by id.`, body: many(names.bulkUpdate), ok: [200, many(names.read)] }, [400, 403, 415]);
  item.patch = operation(model, { id: 'bulk_partial_update', summary: `Partially update ${plural} named by id.`, body: many(names.bulkPatch), ok: [200, many(names.read)] }, [400, 403, 415]);
  item.delete = bulkDestroy();
  return item;
}

/** `/<app>/<path>/{id}/`: retrieve, and unless read-only update, partial update, delete (a deletable read-only model: delete). */
export function buildDetailPath(model: ResolvedModel, names: SchemaNames): PathItem {
  const name = model.verbose_name;
  const item: PathItem = {
    parameters: [ID_PARAMETER],
    get: operation(model, { id: 'retrieve', summary: `Retrieve a ${name}.`, params: DETAIL_PARAMETERS, ok: [200, ref(names.read)] }, [403, 404]),
  };
  const destroy = () => operation(model, { id: 'destroy', summary: `Delete a ${name}.`, ok: [204, null] }, [403, 404, 409]);
  if (model.read_only) return model.deletable ? { ...item, delete: destroy() } : item;
  item.put = operation(model, { id: 'update', summary: `Replace a ${name}.`, body: ref(names.create), form: ref(names.create), ok: [200, ref(names.read)] }, [400, 403, 404, 415]);
  item.patch = operation(model, { id: 'partial_update', summary: `Partially update a ${name}.`, body: ref(names.patch), form: ref(names.patch), ok: [200, ref(names.read)] }, [400, 403, 404, 415]);
  item.delete = destroy();
  return item;
}

/** `/<app>/<path>/{id}/notes/`: an object's notes, for models with the notes feature. */
export function buildNotesPath(model: ResolvedModel, notePage: string, note: string): PathItem {
  const input: Schema = { type: 'object', required: ['note'], properties: { note: { type: 'string' } } };
  return {
    parameters: [ID_PARAMETER],
    get: operation(model, { id: 'notes_list', summary: `List the notes of a ${model.verbose_name}.`, params: LIST_PARAMETERS.slice(0, 2), ok: [200, ref(notePage)], csv: false }, [403, 404]),
    post: operation(model, { id: 'notes_create', summary: `Add a note to a ${model.verbose_name}.`, body: input, ok: [201, ref(note)], csv: false }, [400, 403, 404]),
  };
}

/** `/<app>/<path>/{id}/...` -> `/<app>/<path>/{<field>}/...`. */
export function lookupPath(path: string, field: string): string {
  return path.replace('{id}', `{${field}}`);
}

/**
 * A detail path item's operations on `{<field>}` instead of `{id}`, for a model with a
 * `lookup_field` (the reference's JobByNameViewSet: `jobs/{name}/`, `extras_jobs_run_create_by_name`).
 */
export function byLookupField(item: PathItem, field: string): PathItem {
  const parameter: Parameter = { name: field, in: 'path', required: true, schema: { type: 'string' } };
  return Object.fromEntries(Object.entries(item).map(([key, value]) => (key === 'parameters'
    ? [key, [parameter]]
    : [key, { ...(value as Operation), operationId: `${String((value as Operation).operationId)}_by_${field}` }])));
}
