/**
 * IPAM endpoints beyond CRUD (catalogue `extra_endpoints`): a prefix's available-prefixes and
 * available-ips, and a VLAN group's available-vlans. GET lists free space; POST allocates one
 * object or a list in one transaction under the dialect's table lock.
 */
import { MethodNotAllowedError, ValidationError } from '../../core/errors.js';
import { toAddressBytes } from '../../core/fields/ip.js';
import { sendEmpty, sendJson } from '../../api/crud/respond.js';
import { queryParams, toRequestContext } from '../../api/request-context.js';
import { requirePermission } from '../../ops/permissions.js';
import { getRow } from '../../ops/read.js';
import { serialize } from '../../ops/serialize/index.js';
import { writeTransaction } from '../../ops/write/transaction.js';
import { allocateIps, allocatePrefixes, InsufficientSpaceError, listAvailableIps, listAvailablePrefixes } from './allocate.js';
import { allocateVlans, listAvailableVlans } from './available-vlans.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { QueryDoc, RouteDoc } from '../../api/openapi/route-doc.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Exec } from '../../db/store.js';
import type { RequestContext, Services } from '../../ops/services.js';

const ALLOW = 'GET, POST, HEAD, OPTIONS';

type Handler = { services: Services; req: FastifyRequest; reply: FastifyReply; rc: RequestContext; owner: Row };
type Spec = {
  owner: string;
  target: string;
  path: string;
  name: string;
  /** POST answers `{count, next, previous, results}` (available-vlans) instead of the object or list. */
  envelope?: boolean;
  /** The OpenAPI description (src/api/openapi/route-doc.ts). */
  doc: RouteDoc;
  list: (h: Handler) => Promise<unknown>;
  allocate: (h: Handler & { exec: Exec; items: Record<string, unknown>[]; asList: boolean }) => Promise<Row[]>;
};

/** `limit` as the reference reads it here: PAGINATE_COUNT by default, capped at MAX_PAGE_SIZE. */
export function readLimit(services: Services, req: FastifyRequest): number {
  const raw = queryParams(req).get('limit')?.at(-1);
  const n = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : services.config.paginateCount;
  const max = services.config.maxPageSize || Number.MAX_SAFE_INTEGER;
  return n === 0 || n > max ? max : n;
}

function readAddress(req: FastifyRequest, name: string): Buffer | undefined {
  const raw = queryParams(req).get(name)?.at(-1);
  if (raw === undefined) return undefined;
  const bytes = toAddressBytes(raw.trim());
  if (!bytes) throw new ValidationError({ [name]: [`Invalid IP address format: ${raw}`] });
  return bytes;
}

function bodyItems(body: unknown): { items: Record<string, unknown>[]; asList: boolean } {
  const asList = Array.isArray(body);
  const items = (asList ? body : [body]) as unknown[];
  if (items.some((i) => !i || typeof i !== 'object' || Array.isArray(i))) throw new ValidationError({ non_field_errors: ['Invalid data. Expected a dictionary.'] });
  return { items: items as Record<string, unknown>[], asList };
}

async function post(h: Handler, spec: Spec, target: ResolvedModel) {
  if (h.rc.actor) requirePermission(h.services, h.rc.actor, 'add', target);
  const { items, asList } = bodyItems(h.req.body);
  try {
    const rows = await writeTransaction(h.services, target, (exec) => spec.allocate({ ...h, exec, items, asList }));
    // A write's answer: the opt-in keys are always shown, as on every create.
    const rendered = await serialize(h.services, h.services.dialect.db, target, rows, { depth: 0, baseUrl: h.rc.baseUrl, omitCounts: true, include: new Set(['relationships', 'computed_fields']) });
    if (spec.envelope) return sendJson(h.reply, 201, { count: rendered.length, next: null, previous: null, results: rendered });
    return sendJson(h.reply, 201, asList ? rendered : rendered[0]);
  } catch (err) {
    // The reference answers 204 with a JSON detail, but a 204 carries no body (clients such as
    // pynautobot read only the status), so the detail goes to the log.
    if (err instanceof InsufficientSpaceError) {
      h.req.log.info({ detail: err.message }, 'allocation refused: not enough free space');
      return sendEmpty(h.reply);
    }
    throw err;
  }
}

function register(app: FastifyInstance, services: Services, spec: Spec): void {
  const owner = services.registry.get(spec.owner);
  const target = services.registry.get(spec.target);
  app.route({
    method: ['GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'],
    url: `/api/${owner.app}/${owner.path}/:key/${spec.path}/`,
    config: { openapi: spec.doc },
    handler: async (req, reply) => {
      reply.header('Allow', ALLOW);
      const rc = toRequestContext(req, `${owner.app}-api:${owner.model}-${spec.name}`);
      const row = await getRow(services, rc, owner, (req.params as { key: string }).key, new Map(), 'view', services.dialect.db);
      if (rc.actor) requirePermission(services, rc.actor, 'view', target);
      const h: Handler = { services, req, reply, rc, owner: row };
      if (req.method === 'GET' || req.method === 'HEAD') return sendJson(reply, 200, await spec.list(h));
      if (req.method === 'OPTIONS') return sendJson(reply, 200, { name: spec.name.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' '), description: '', renders: ['application/json'], parses: ['application/json'] });
      if (req.method === 'POST') return post(h, spec, target);
      throw new MethodNotAllowedError(req.method, ALLOW);
    },
  });
}

const LIMIT: QueryDoc = { schema: { type: 'integer', minimum: 0 }, description: 'Most entries to return (PAGINATE_COUNT by default, at most MAX_PAGE_SIZE; 0 for the maximum).' };
const ADDRESS: QueryDoc = { schema: { type: 'string' }, description: 'IP address: list from / up to this one only' };
const either = (item: Record<string, unknown>) => ({ schema: { oneOf: [item, { type: 'array', items: item }] } });
const request = (required: string[], properties: Record<string, unknown>, what: string) => ({ type: 'object', required, properties, additionalProperties: true, description: `Any other field of a new ${what}, as for its list endpoint.` });
const free = (properties: Record<string, unknown>) => ({ schema: { type: 'array', items: { type: 'object', properties: { ip_version: { type: 'integer', enum: [4, 6] }, ...properties } } } });
const ALLOCATED = 'Allocates one (or a list, in one transaction); 204 (no body) when there is not enough free space.';

/** OpenAPI descriptions of the three endpoints. */
const DOCS: Record<string, RouteDoc> = {
  'available-prefixes': {
    get: { summary: 'Free prefixes within this prefix.', action: 'list', errors: [404], ok: [200, free({ prefix: { type: 'string' } })] },
    post: { summary: `Create prefixes of the given length in free space. ${ALLOCATED}`, body: either(request(['prefix_length'], { prefix_length: { type: 'integer', minimum: 0, maximum: 128 } }, 'prefix')), errors: [400, 404], ok: [201, { model: 'ipam.prefix', many: 'either' }] },
  },
  'available-ips': {
    get: { summary: 'Free IP addresses within this prefix.', action: 'list', query: { limit: LIMIT, range_start: ADDRESS, range_end: ADDRESS }, errors: [400, 404], ok: [200, free({ address: { type: 'string' } })] },
    post: { summary: `Create IP addresses at the first free addresses. ${ALLOCATED}`, query: { range_start: ADDRESS, range_end: ADDRESS }, body: either(request(['status'], { status: { $ref: '#/components/schemas/RelatedObjectRequest' } }, 'IP address')), errors: [400, 404], ok: [201, { model: 'ipam.ipaddress', many: 'either' }] },
  },
  'available-vlans': {
    get: { summary: 'Free VLAN ids of this VLAN group.', action: 'list', query: { limit: LIMIT }, errors: [404], ok: [200, { schema: { type: 'object', properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: { type: 'array', items: { type: 'integer' } } } } }] },
    post: { summary: `Create VLANs at the given or the first free ids. ${ALLOCATED}`, body: either(request(['name', 'status'], { vid: { type: 'integer', minimum: 1, maximum: 4094 }, name: { type: 'string' } }, 'VLAN')), errors: [400, 404], ok: [201, { model: 'ipam.vlan', many: 'page' }] },
  },
};

/** Mounts the IPAM extra endpoints (APP_ROUTES). */
export function registerIpamRoutes(app: FastifyInstance, services: Services): void {
  register(app, services, {
    owner: 'ipam.prefix', target: 'ipam.prefix', path: 'available-prefixes', name: 'available-prefixes', doc: DOCS['available-prefixes'],
    list: (h) => listAvailablePrefixes(h.services.dialect.db, h.owner),
    allocate: (a) => allocatePrefixes({ services: a.services, exec: a.exec, rc: a.rc, parent: a.owner, items: a.items, asList: a.asList }),
  });
  register(app, services, {
    owner: 'ipam.prefix', target: 'ipam.ipaddress', path: 'available-ips', name: 'available-ips', doc: DOCS['available-ips'],
    list: (h) => listAvailableIps(h.services.dialect.db, h.owner, { limit: readLimit(h.services, h.req), rangeStart: readAddress(h.req, 'range_start'), rangeEnd: readAddress(h.req, 'range_end') }),
    allocate: (a) => allocateIps({ services: a.services, exec: a.exec, rc: a.rc, parent: a.owner, items: a.items, asList: a.asList, rangeStart: readAddress(a.req, 'range_start'), rangeEnd: readAddress(a.req, 'range_end') }),
  });
  register(app, services, {
    owner: 'ipam.vlangroup', target: 'ipam.vlan', path: 'available-vlans', name: 'available-vlans', doc: DOCS['available-vlans'], envelope: true,
    list: (h) => listAvailableVlans(h.services.dialect.db, h.owner, readLimit(h.services, h.req)),
    allocate: (a) => allocateVlans({ services: a.services, exec: a.exec, rc: a.rc, group: a.owner, items: a.items, asList: a.asList }),
  });
}
