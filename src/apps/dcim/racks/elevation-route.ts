import { MethodNotAllowedError, ValidationError } from '../../../core/errors.js';
import { pageLinks } from '../../../api/crud/pagination.js';
import { parsePaging } from '../../../api/crud/query.js';
import { sendJson } from '../../../api/crud/respond.js';
import { queryParams, toRequestContext } from '../../../api/request-context.js';
import { getRow } from '../../../ops/read.js';
import { elevationSvg, rackUnits, unitBody, type Face } from './elevation.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../../ops/services.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TRUE = new Set(['true', 'True', '1', 'yes', 'on']);
const FALSE = new Set(['false', 'False', '0', 'no', 'off']);
/** Colours of the standalone drawing (the web interface styles its inline copy itself). */
const SVG_STYLE = '<style>text{font:11px sans-serif;fill:#222}.free{fill:#e3f1e6;stroke:#ccc}.occupied{fill:#cfe0f7;stroke:#1d5fbf}.reserved{fill:#f8e6c7;stroke:#a15c00}.hidden{display:none}</style>';

type Options = { face: Face; render: 'json' | 'svg'; unitWidth: number; unitHeight: number; legendWidth: number; exclude?: string; expand: boolean; includeImages: boolean; displayFullname: boolean; occupied: boolean | null; q: string };

/** The query as the reference's RackElevationDetailFilterSerializer validates it (400 naming the field). */
function readOptions(params: Map<string, string[]>): Options {
  const one = (k: string) => params.get(k)?.at(-1);
  const errors: Record<string, string[]> = {};
  const choice = <T extends string>(k: string, allowed: T[], fallback: T): T => {
    const v = one(k);
    if (v === undefined) return fallback;
    if ((allowed as string[]).includes(v)) return v as T;
    errors[k] = [`"${v}" is not a valid choice.`];
    return fallback;
  };
  const int = (k: string, fallback: number) => {
    const v = one(k);
    if (v === undefined) return fallback;
    if (/^-?\d+$/.test(v.trim())) return Number(v);
    errors[k] = ['A valid integer is required.'];
    return fallback;
  };
  const bool = (k: string, fallback: boolean | null) => {
    const v = one(k);
    if (v === undefined || (v === '' && fallback === null)) return fallback;
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    errors[k] = ['Must be a valid boolean.'];
    return fallback;
  };
  const exclude = one('exclude');
  if (exclude !== undefined && !UUID.test(exclude)) errors.exclude = ['Must be a valid UUID.'];
  const out: Options = { face: choice('face', ['front', 'rear'], 'front'), render: choice('render', ['json', 'svg'], 'json'), unitWidth: int('unit_width', 230), unitHeight: int('unit_height', 22), legendWidth: int('legend_width', 30), exclude, expand: bool('expand_devices', true) as boolean, includeImages: bool('include_images', true) as boolean, displayFullname: bool('display_fullname', true) as boolean, occupied: bool('is_occupied', null), q: one('q') ?? '' };
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return out;
}

const ALLOW = 'GET, HEAD, OPTIONS';

async function elevation(services: Services, req: FastifyRequest, reply: FastifyReply) {
  reply.header('Allow', ALLOW);
  const rc = toRequestContext(req, 'dcim-api:rack-elevation');
  const racks = services.registry.get('dcim.rack');
  const rack = await getRow(services, rc, racks, (req.params as { key: string }).key, new Map(), 'view', services.dialect.db);
  if (req.method === 'OPTIONS') return sendJson(reply, 200, { name: 'Elevation', description: '', renders: ['application/json', 'image/svg+xml'], parses: ['application/json'] });
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, ALLOW);
  const params = queryParams(req);
  const opts = readOptions(params);
  let units = await rackUnits(services, rc, rack, { face: opts.face, exclude: opts.exclude });
  if (opts.render === 'svg') {
    const svg = elevationSvg(units, { unitWidth: opts.unitWidth, unitHeight: opts.unitHeight, legendWidth: opts.legendWidth, title: `${String(rack.name)} (${opts.face})`, deviceUrl: (id) => `${rc.baseUrl}/dcim/devices/${id}/`, includeImages: opts.includeImages, displayFullname: opts.displayFullname });
    return reply.code(200).header('content-type', 'image/svg+xml').send(svg.replace(/^(<svg[^>]*>)/, `$1${SVG_STYLE}`));
  }
  if (!opts.expand) units = units.filter((u) => !u.device || u.device.bottom === u.id);
  if (opts.occupied !== null) units = units.filter((u) => u.occupied === opts.occupied);
  if (opts.q) units = units.filter((u) => String(u.id).includes(opts.q) || u.name.includes(opts.q));
  const paging = parsePaging(params, services.config);
  const page = units.slice(paging.offset, paging.limit === null ? undefined : paging.offset + paging.limit);
  const links = pageLinks({ base: rc.baseUrl, path: new URL(req.url, 'http://x').pathname, params, count: units.length, ...paging });
  return sendJson(reply, 200, { count: units.length, next: links.next, previous: links.previous, results: page.map(unitBody) });
}

/** `GET /api/dcim/racks/{id}/elevation/`: the rack's units as JSON (paginated) or, with `render=svg`, a drawing. */
export function registerRackElevationRoute(app: FastifyInstance, services: Services): void {
  app.route({
    method: ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/dcim/racks/:key/elevation/',
    config: { openapi: { get: { summary: 'Rack units of one face, top first (render=svg: a drawing).', action: 'list', errors: [400, 404], ok: [200, { schema: { type: 'object' } }] } } },
    handler: (req, reply) => elevation(services, req, reply),
  });
}
