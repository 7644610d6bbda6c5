import { sql } from 'kysely';
import { MethodNotAllowedError, ValidationError } from '../../../core/errors.js';
import { pageLinks } from '../../../api/crud/pagination.js';
import { parsePaging, serializeOptions } from '../../../api/crud/query.js';
import { sendJson } from '../../../api/crud/respond.js';
import { queryParams, toRequestContext } from '../../../api/request-context.js';
import { buildOrder, orderBy } from '../../../db/query/sort.js';
import { and, col } from '../../../db/query/sql-helpers.js';
import { FilterError, resolveIds, withDescendants } from '../../../ops/filters/resolve-values.js';
import { scopeClause } from '../../../ops/read.js';
import { serialize } from '../../../ops/serialize/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDoc } from '../../../api/openapi/route-doc.js';
import type { Clause } from '../../../db/query/sql-helpers.js';
import type { ResolvedModel, Row } from '../../../core/registry/types.js';
import type { SerializeOptions } from '../../../ops/serialize/index.js';
import type { Services } from '../../../ops/services.js';

/** One connections list: the endpoint model it lists and its OPTIONS name. */
type ConnectionList = { path: string; model: string; name: string; pairs: boolean };

const LISTS: readonly ConnectionList[] = [
  { path: 'console-connections', model: 'dcim.consoleport', name: 'Console Ports', pairs: false },
  { path: 'power-connections', model: 'dcim.powerport', name: 'Power Ports', pairs: false },
  { path: 'interface-connections', model: 'dcim.interface', name: 'Interfaces', pairs: true },
];

const ALLOW = 'GET, HEAD, OPTIONS';
const OWN_FILTERS = new Set(['location', 'device', 'device_id']);

/** Ids of the devices named by `device`/`device_id` and lying in `location` (with descendants). */
async function deviceScope(services: Services, params: Map<string, string[]>): Promise<((eb: Parameters<Clause>[0]) => never)[]> {
  const exec = services.dialect.db;
  const device = services.registry.get('dcim.device');
  const scopes: ((eb: Parameters<Clause>[0]) => never)[] = [];
  const named = [...(params.get('device') ?? []), ...(params.get('device_id') ?? [])];
  if (named.length > 0) {
    const ids = await resolveIds(exec, device, named);
    scopes.push(() => ids as never);
  }
  if (params.has('location')) {
    const location = services.registry.get('dcim.location');
    const ids = await withDescendants(exec, location, await resolveIds(exec, location, params.get('location') ?? []));
    scopes.push((eb) => eb.selectFrom(device.table).select('id').where('location_id', 'in', ids.length ? ids : ['']) as never);
  }
  return scopes;
}

/** The list's own filters: the endpoint's device (for interface pairs, either end's device). */
async function ownClauses(services: Services, model: ResolvedModel, params: Map<string, string[]>, pairs: boolean): Promise<Clause[]> {
  let scopes;
  try {
    scopes = await deviceScope(services, params);
  } catch (err) {
    if (err instanceof FilterError) throw new ValidationError({ [params.has('location') ? 'location' : 'device']: [err.message] });
    throw err;
  }
  const t = model.table;
  return scopes.map((devices) => (eb) => {
    const own = eb(col(t, 'device_id'), 'in', devices(eb));
    if (!pairs) return own;
    return eb.or([own, eb(col(t, 'connected_endpoint_id'), 'in', eb.selectFrom(t).select('id').where('device_id', 'in', devices(eb)))]);
  });
}

/** Endpoints whose path has a destination; interface pairs only once (the lower id on the A side). */
function connectedClause(model: ResolvedModel, pairs: boolean): Clause {
  const t = model.table;
  if (!pairs) return (eb) => eb(col(t, 'connected_endpoint_id'), 'is not', null);
  return (eb) => eb.and([eb(col(t, 'connected_endpoint_type'), '=', 'dcim.interface'), eb(col(t, 'id'), '<', col(t, 'connected_endpoint_id'))]);
}

/** Interface pairs as the reference's interface-connections items. */
async function renderPairs(services: Services, model: ResolvedModel, rows: Row[], opts: SerializeOptions) {
  const exec = services.dialect.db;
  const far = await services.store.byIds(exec, model, rows.map((r) => r.connected_endpoint_id));
  const [near, farOut] = [await serialize(services, exec, model, rows, opts), await serialize(services, exec, model, far, opts)];
  const farById = new Map(far.map((r, i) => [r.id, farOut[i]]));
  return rows.map((r, i) => ({ interface_a: near[i], interface_b: farById.get(String(r.connected_endpoint_id)) ?? null, connected_endpoint_reachable: r.connected_endpoint_reachable }));
}

async function listConnections(services: Services, list: ConnectionList, req: FastifyRequest, reply: FastifyReply) {
  const model = services.registry.get(list.model);
  const rc = toRequestContext(req, `dcim-api:${list.path.replace(/s$/, '')}-list`);
  const params = queryParams(req);
  const generic = new Map([...params].filter(([k]) => !OWN_FILTERS.has(k)));
  const where = and([await scopeClause(services, rc, model, generic, 'view', services.dialect.db), connectedClause(model, list.pairs), ...(await ownClauses(services, model, params, list.pairs))]);
  const db = services.dialect.db;
  const counted = await db.selectFrom(model.table).select(sql<number>`count(*)`.as('n')).where(where).executeTakeFirst();
  const paging = parsePaging(params, services.config);
  let select = db.selectFrom(model.table).selectAll(model.table).where(where);
  select = orderBy(select, buildOrder(services.registry, model, params.get('sort')?.at(-1)));
  if (paging.limit !== null) select = select.limit(paging.limit).offset(paging.offset);
  const rows = (await select.execute()).map((r) => services.store.decode(model, r));
  const opts = serializeOptions(params, rc.baseUrl, { method: req.method });
  const results = list.pairs ? await renderPairs(services, model, rows, opts) : await serialize(services, db, model, rows, opts);
  const count = Number(counted?.n ?? 0);
  const links = pageLinks({ base: rc.baseUrl, path: new URL(req.url, 'http://x').pathname, params, count, ...paging });
  return sendJson(reply, 200, { count, ...links, results });
}

/** OPTIONS of a list-like endpoint that is not a model: name and formats only. */
export function listMetadata(name: string, description = '') {
  return { name, description, renders: ['application/json', 'text/html', 'text/csv'], parses: ['application/json', 'text/csv'] };
}

const NAMED = { type: 'array', items: { type: 'string' } };
const PAIR = { type: 'object', properties: { interface_a: { type: 'object', additionalProperties: true }, interface_b: { type: 'object', nullable: true, additionalProperties: true }, connected_endpoint_reachable: { type: 'boolean', nullable: true } } };
const PAIR_PAGE = { type: 'object', required: ['count', 'results'], properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: { type: 'array', items: PAIR } } };

/** The OpenAPI description of one connections list (src/api/openapi/route-doc.ts). */
function connectionsDoc(list: ConnectionList): RouteDoc {
  const query = { location: { schema: NAMED, description: 'Location (UUID or name), with its descendants' }, device: { schema: NAMED, description: 'Device (UUID or name)' }, device_id: { schema: NAMED, description: 'Device UUID' } };
  return { get: { summary: `Connected ${list.name.toLowerCase()}, paginated.`, query, filtersOf: list.model, paging: true, errors: [400], ok: [200, list.pairs ? { schema: PAIR_PAGE } : { model: list.model, many: 'page' }] } };
}

/** `/api/dcim/{console,power,interface}-connections/`: read-only lists of connected endpoints. */
export function registerConnectionRoutes(app: FastifyInstance, services: Services): void {
  for (const list of LISTS) {
    app.route({
      method: ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: `/api/dcim/${list.path}/`,
      config: { openapi: connectionsDoc(list), unversioned: true },
      handler: async (req, reply) => {
        reply.header('Allow', ALLOW);
        if (req.method === 'OPTIONS') return sendJson(reply, 200, listMetadata(list.name));
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, ALLOW);
        return listConnections(services, list, req, reply);
      },
    });
  }
}
