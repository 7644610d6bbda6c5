import { BadRequestError, MethodNotAllowedError, NotFoundError } from '../../../core/errors.js';
import { sendJson } from '../../../api/crud/respond.js';
import { toRequestContext, queryParams } from '../../../api/request-context.js';
import { notFound, scopeClause } from '../../../ops/read.js';
import { serialize } from '../../../ops/serialize/index.js';
import { listMetadata } from './connections.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDoc } from '../../../api/openapi/route-doc.js';
import type { RequestContext, Services } from '../../../ops/services.js';
import type { Row } from '../../../core/registry/types.js';

const ALLOW = 'GET, HEAD, OPTIONS';
const DESCRIPTION = 'Finds the device at the far end of the cable path of a given peer interface, named by its device (`peer_device`) and its name (`peer_interface`).';

/** The one viewable row of `modelId` matching generic filters, or the reference's 404. */
async function findOne(services: Services, rc: RequestContext, modelId: string, filters: Record<string, string>): Promise<Row> {
  const model = services.registry.get(modelId);
  const where = await scopeClause(services, rc, model, new Map(Object.entries(filters).map(([k, v]) => [k, [v]])), 'view', services.dialect.db);
  const raw = await services.dialect.db.selectFrom(model.table).selectAll(model.table).where(where).limit(2).execute();
  if (raw.length !== 1) throw notFound(model);
  return services.store.decode(model, raw[0]);
}

/**
 * `GET /api/dcim/connected-device/?peer_device=<name>&peer_interface=<name>`: the device owning
 * the interface at the other end of that interface's path (how a device finds its neighbour from
 * LLDP data); 404 when the path ends anywhere else.
 */
async function connectedDevice(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const params = queryParams(req);
  const peerDevice = params.get('peer_device')?.at(-1);
  const peerInterface = params.get('peer_interface')?.at(-1);
  if (!peerDevice || !peerInterface) throw new BadRequestError('Request must include "peer_device" and "peer_interface" filters.');
  const rc = toRequestContext(req, 'dcim-api:connected-device-list');
  const device = await findOne(services, rc, 'dcim.device', { name: peerDevice });
  const iface = await findOne(services, rc, 'dcim.interface', { device: device.id, name: peerInterface });
  if (iface.connected_endpoint_type !== 'dcim.interface') throw new NotFoundError();
  const far = await findOne(services, rc, 'dcim.interface', { id: String(iface.connected_endpoint_id) });
  const owner = await findOne(services, rc, 'dcim.device', { id: String(far.device_id) });
  const model = services.registry.get('dcim.device');
  const [out] = await serialize(services, services.dialect.db, model, [owner], { depth: 0, baseUrl: rc.baseUrl });
  return sendJson(reply, 200, out);
}

/** The OpenAPI description (src/api/openapi/route-doc.ts). */
const DOC: RouteDoc = {
  get: {
    summary: DESCRIPTION,
    action: 'list',
    query: { peer_device: { schema: { type: 'string' }, required: true, description: 'Name of the device' }, peer_interface: { schema: { type: 'string' }, required: true, description: 'Name of its interface' } },
    errors: [400, 404],
    ok: [200, { model: 'dcim.device' }],
  },
};

/** Registers `/api/dcim/connected-device/`. */
export function registerConnectedDeviceRoute(app: FastifyInstance, services: Services): void {
  app.route({
    method: ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/dcim/connected-device/',
    config: { openapi: DOC, unversioned: true },
    handler: async (req, reply) => {
      reply.header('Allow', ALLOW);
      if (req.method === 'OPTIONS') return sendJson(reply, 200, listMetadata('Connected Device Locator', DESCRIPTION));
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, ALLOW);
      return connectedDevice(services, req, reply);
    },
  });
}
