import { MethodNotAllowedError, NotFoundError } from '../../core/errors.js';
import { bulkDelete, bulkUpdate, createObjects, deleteObject, updateObjectRows } from '../../ops/crud.js';
import { requirePermission } from '../../ops/permissions.js';
import { removeUploads } from '../../ops/media/store-upload.js';
import { imageFields } from '../../core/registry/image-fields.js';
import { toRowId } from '../../core/registry/row-id.js';
import { isMultipart } from '../plugins/multipart.js';
import { multipartModelBody } from './multipart-body.js';
import { getRow, listRows } from '../../ops/read.js';
import { readLinksAndCounts, serializeJoined, serializePage, serializeOne, objectUrl } from '../../ops/serialize/index.js';
import { sendCsvList, sendCsvRows } from '../csv/respond-csv.js';
import { buildOptions, optionsJsonText } from '../metadata/options.js';
import { queryParams, requestGeneration, requestUrl, toRequestContext } from '../request-context.js';
import { pageLinks } from './pagination.js';
import { attempt, parsePaging, readsOnly, serializeOptions } from './query.js';
import { ResponseCache } from './response-cache.js';
import { listKey, readDetailAhead, readListAhead, takeReadAhead } from './read-ahead.js';
import { sendEmpty, sendJsonText } from './respond.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { RequestContext, Services } from '../../ops/services.js';
import type { Params } from './query.js';

export const LIST_ALLOW = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
export const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
export const READ_ALLOW = 'GET, HEAD, OPTIONS';
const READ_DELETE_ALLOW = 'GET, DELETE, HEAD, OPTIONS';
export const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The `Allow` header of a model's list or detail path, as DRF lists a viewset's methods: a path
 * endpoint's viewset has a `trace` action, whose name DRF takes for the TRACE method.
 */
export function allowOf(model: ResolvedModel, kind: 'list' | 'detail'): string {
  const base = model.read_only ? (model.deletable ? READ_DELETE_ALLOW : READ_ALLOW) : kind === 'list' && model.creatable ? LIST_ALLOW : DETAIL_ALLOW;
  return model.fieldMap.has('connected_endpoint') ? `${base}, TRACE` : base;
}

/** A model path's `Allow` for responses made before its handler runs (version and authentication errors); undefined for unknown models. */
function allowBeforeHandler(services: Services, kind: 'list' | 'detail'): (req: FastifyRequest) => string | undefined {
  return (req) => {
    const { app, path } = req.params as { app?: string; path?: string };
    const model = app && path ? services.registry.byAppPath(app, path) : undefined;
    return model ? allowOf(model, kind) : undefined;
  };
}

const ACTION: Record<string, 'view' | 'add' | 'change' | 'delete' | undefined> = { GET: 'view', HEAD: 'view', POST: 'add', PUT: 'change', PATCH: 'change', DELETE: 'delete' };

type Ctx = { services: Services; model: ResolvedModel; req: FastifyRequest; reply: FastifyReply; cache: ResponseCache };

/** A list/detail request names its model by app and path; unknown ones are a plain 404. */
export function findModel(services: Services, req: FastifyRequest): ResolvedModel {
  const { app, path } = req.params as { app: string; path: string };
  const model = services.registry.byAppPath(app, path);
  if (!model) throw new NotFoundError('Not found.', { versioned: false });
  // A model the reference serves with a plain DRF viewset answers without an API-Version header.
  if (model.unversioned) req.apiVersion = '';
  return model;
}

/** 405 for methods the endpoint lacks, after the permission check (403 comes first). */
function refuseMethod(ctx: Ctx, allow: string): never {
  const action = ACTION[ctx.req.method];
  if (action && ctx.req.actor) requirePermission(ctx.services, ctx.req.actor, action, ctx.model);
  throw new MethodNotAllowedError(ctx.req.method, allow);
}

/**
 * Runs a write with the request's body; a multipart form (a model with image fields) is first
 * turned into the JSON body it stands for, its files stored, and removed again if the write fails.
 */
async function withBody<T>(ctx: Ctx, action: 'add' | 'change', write: (body: unknown) => Promise<T>): Promise<T> {
  const { body } = ctx.req;
  if (!isMultipart(body)) return write(body);
  if (ctx.req.actor) requirePermission(ctx.services, ctx.req.actor, action, ctx.model);
  const { mediaRoot } = ctx.services.config;
  const upload = await multipartModelBody(mediaRoot, ctx.model, body.__multipart);
  try {
    return await write(upload.body);
  } catch (err) {
    await removeUploads(mediaRoot, upload.stored);
    throw err;
  }
}

/** Route config: model paths take multipart/form-data for models with image fields. */
function acceptsMultipart(services: Services): (req: FastifyRequest) => boolean {
  return (req) => {
    const { app, path } = req.params as { app?: string; path?: string };
    const model = app && path ? services.registry.byAppPath(app, path) : undefined;
    return !!model && !model.read_only && imageFields(model).length > 0;
  };
}

/**
 * A write's response body as JSON bytes, written straight from the rows (no objects first):
 * the list's rows in `[`...`]`, or the one row's object.
 */
async function renderBody(ctx: Ctx, rows: Row[], list: boolean, opts: { omitCounts?: boolean } = {}): Promise<Buffer> {
  const params = queryParams(ctx.req);
  const rc = toRequestContext(ctx.req, '');
  const generation = readsOnly(ctx.req.method) ? requestGeneration(ctx.services.dialect, ctx.req) : undefined;
  const serializeOpts = { ...serializeOptions(params, rc.baseUrl, { method: ctx.req.method, generation }), ...opts };
  return serializeJoined(ctx.services, ctx.services.dialect.db, ctx.model, rows, serializeOpts, list ? '[' : '', list ? ']' : '');
}

/** A GET body from the response cache, or rendered by `build` and kept there (a request the cache cannot serve goes straight to `build`). */
async function cachedGet(ctx: Ctx, build: () => Promise<Buffer>) {
  if (!ctx.cache.shareable(ctx.req)) return sendJsonText(ctx.reply, 200, await build());
  const key = await ctx.cache.keyFor(ctx.req);
  let body = ctx.cache.get(key);
  if (body === undefined) {
    body = await build();
    await ctx.cache.set(key, body);
  }
  return sendJsonText(ctx.reply, 200, body);
}

async function listGet(ctx: Ctx, rc: RequestContext, params: Params) {
  if (ctx.req.wantsCsv) return sendCsvList(ctx.services, ctx.req, ctx.reply, ctx.model);
  return cachedGet(ctx, () => listBody(ctx, rc, params));
}

async function listBody(ctx: Ctx, rc: RequestContext, params: Params) {
  const paging = parsePaging(params, ctx.services.config);
  const opts = serializeOptions(params, rc.baseUrl, { method: ctx.req.method, generation: requestGeneration(ctx.services.dialect, ctx.req) });
  const sort = params.get('sort')?.at(-1);
  const ahead = takeReadAhead(ctx.req, ctx.model, listKey(paging.limit, paging.offset, sort))?.page;
  const { count, rows } = await listRows(ctx.services, rc, ctx.model, { params, ...paging, sort }, ahead);
  const links = pageLinks({ base: rc.baseUrl, path: requestUrl(ctx.req).pathname, params, count, ...paging });
  return serializePage(ctx.services, ctx.services.dialect.db, ctx.model, rows, opts, { count, next: links.next, previous: links.previous });
}

/**
 * One object's GET body: its JSON text as bytes. When the path names the object by its id (and
 * the options are valid), its links and counts are read beside the row (PostgreSQL: in the same
 * batch, a round trip fewer; and both in the token's round trip when read ahead, see read-ahead.ts);
 * a row not found or not permitted leaves that read unused, and a missing row is still a 404
 * before a bad option's 400, as the reference.
 */
async function detailBody(ctx: Ctx, key: string, rc: RequestContext, params: Params): Promise<Buffer> {
  const { services, req, model } = ctx;
  const options = () => serializeOptions(params, rc.baseUrl, { method: req.method, generation: requestGeneration(services.dialect, req) });
  const valid = attempt(options);
  const id = valid && toRowId(model, key);
  const ahead = id ? takeReadAhead(req, model, id)?.detail : undefined;
  const early = ahead?.links ?? (valid && id ? readLinksAndCounts(services, services.dialect.db, model, [id], valid) : undefined);
  early?.read.catch(() => undefined);
  const row = await getRow(services, rc, model, key, params, 'view', services.dialect.db, ahead?.row);
  return serializeOne(services, services.dialect.db, model, row, valid ?? options(), early);
}

function routeName(model: ResolvedModel, kind: 'list' | 'detail'): string {
  return `${model.app}-api:${model.model}-${kind}`;
}

async function handleList(ctx: Ctx) {
  const { services, model, req, reply } = ctx;
  // A model the API cannot create (jobs) allows on its list what a detail path allows.
  const allow = allowOf(model, 'list');
  reply.header('Allow', allow);
  const rc = toRequestContext(req, routeName(model, 'list'));
  const params = queryParams(req);
  switch (req.method) {
    case 'GET': case 'HEAD': return listGet(ctx, rc, params);
    case 'OPTIONS': return sendJsonText(reply, 200, optionsJsonText(buildOptions(services, model, { actor: req.actor, detail: false, writeEnabled: req.actor?.write_enabled !== false })));
    default: if (model.read_only && !(model.deletable && req.method === 'DELETE')) refuseMethod(ctx, allow);
  }
  if (req.method === 'POST' && !model.creatable) refuseMethod(ctx, allow);
  if (req.method === 'POST') {
    const rows = await withBody(ctx, 'add', (body) => createObjects(services, rc, model, body));
    if (req.wantsCsv) return sendCsvRows(services, req, reply, model, rows, { status: 201, omitCounts: true });
    const list = Array.isArray(req.body);
    const body = await renderBody(ctx, rows, list, { omitCounts: true });
    if (!list) reply.header('Location', objectUrl(rc.baseUrl, model, rows[0].id));
    return sendJsonText(reply, 201, body);
  }
  if (req.method === 'DELETE') {
    await bulkDelete(services, rc, model, req.body, params);
    return sendEmpty(reply);
  }
  const rows = await withBody(ctx, 'change', (body) => bulkUpdate(services, rc, model, body, params, req.method === 'PATCH'));
  if (req.wantsCsv) return sendCsvRows(services, req, reply, model, rows, { status: 200 });
  return sendJsonText(reply, 200, await renderBody(ctx, rows, true));
}

async function handleDetail(ctx: Ctx) {
  const { services, model, req, reply } = ctx;
  const allow = allowOf(model, 'detail');
  reply.header('Allow', allow);
  const { key } = req.params as { key: string };
  const rc = toRequestContext(req, routeName(model, 'detail'));
  const params = queryParams(req);
  switch (req.method) {
    case 'GET': case 'HEAD': {
      if (!req.wantsCsv) return cachedGet(ctx, () => detailBody(ctx, key, rc, params));
      const row = await getRow(services, rc, model, key, params, 'view', services.dialect.db);
      return sendCsvRows(services, req, reply, model, [row], { status: 200 });
    }
    case 'OPTIONS': return sendJsonText(reply, 200, optionsJsonText(buildOptions(services, model, { actor: req.actor, detail: true, writeEnabled: req.actor?.write_enabled !== false })));
    case 'POST': return refuseMethod(ctx, allow);
    default: if (model.read_only && !(model.deletable && req.method === 'DELETE')) refuseMethod(ctx, allow);
  }
  if (req.method === 'DELETE') {
    await deleteObject(services, rc, model, key, params);
    return sendEmpty(reply);
  }
  // The one-row list the write returned (not a copy): its response reuses what the change log loaded.
  const rows = await withBody(ctx, 'change', (body) => updateObjectRows(services, rc, model, key, params, body, req.method === 'PATCH'));
  if (req.wantsCsv) return sendCsvRows(services, req, reply, model, rows, { status: 200 });
  return sendJsonText(reply, 200, await renderBody(ctx, rows, false));
}

/** Generic list and detail endpoints for every registered model (`cache`: the response cache, shared with /metrics/). */
export function registerModelRoutes(app: FastifyInstance, services: Services, cache = new ResponseCache(services.dialect, services.config.responseCacheMb * 1024 * 1024)): void {
  /** The route's reads ahead of authentication (read-ahead.ts), unless the cache likely holds the body. */
  const readAhead = (read: typeof readListAhead) => (req: FastifyRequest) => {
    const { app: appLabel, path } = req.params as { app: string; path: string };
    if (!cache.mayHold(req)) read(services, req, services.registry.byAppPath(appLabel, path));
  };
  app.decorateRequest('readAhead', null);
  app.route({ method: [...ALL_METHODS], url: '/api/:app/:path/', config: { allow: allowBeforeHandler(services, 'list'), multipart: acceptsMultipart(services), readAhead: readAhead(readListAhead) }, handler: (req, reply) => handleList({ services, model: findModel(services, req), req, reply, cache }) });
  app.route({ method: [...ALL_METHODS], url: '/api/:app/:path/:key/', config: { allow: allowBeforeHandler(services, 'detail'), multipart: acceptsMultipart(services), readAhead: readAhead(readDetailAhead) }, handler: (req, reply) => handleDetail({ services, model: findModel(services, req), req, reply, cache }) });
}
