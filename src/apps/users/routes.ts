import { NotAuthenticatedError, ValidationError } from '../../core/errors.js';
import { fixedViewHandler } from '../../api/crud/fixed-view.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FixedView } from '../../api/crud/fixed-view.js';
import type { RouteDoc } from '../../api/openapi/route-doc.js';
import type { Exec } from '../../db/store.js';
import type { Actor, Services } from '../../ops/services.js';

const CONFIG_ALLOW = 'GET, PATCH, HEAD, OPTIONS';
type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects merge key by key, recursively; any other value replaces what was there. */
export function deepMerge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = isObject(value) && isObject(out[key]) ? deepMerge(out[key] as Json, value) : value;
  return out;
}

async function readConfig(services: Services, exec: Exec, userId: string): Promise<Json> {
  const model = services.registry.get('users.user');
  const row = await services.store.byId(exec, model, userId);
  return isObject(row?.config_data) ? row.config_data : {};
}

/** PATCH: deep-merges the body into the caller's config_data, the row locked for the read-modify-write. */
async function patchConfig(services: Services, userId: string, body: unknown): Promise<Json> {
  if (!isObject(body)) throw new ValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${Array.isArray(body) ? 'list' : typeof body}.`] });
  const model = services.registry.get('users.user');
  return services.dialect.db.transaction().execute(async (trx) => {
    await trx.updateTable(model.table).set((eb) => ({ config_data: eb.ref('config_data') })).where('id', '=', userId).execute();
    const merged = deepMerge(await readConfig(services, trx, userId), body);
    await services.store.update(trx, model, userId, { config_data: merged });
    return merged;
  });
}

function requireUser(req: FastifyRequest): Actor {
  if (!req.actor || req.actor.anonymous) throw new NotAuthenticatedError();
  return req.actor;
}

function configView(services: Services): FixedView {
  return {
    allow: CONFIG_ALLOW,
    name: 'User Config List',
    description: "The requesting user's own preferences: GET returns them, PATCH deep-merges the request body into them.",
    guard: requireUser,
    methods: {
      GET: (req) => readConfig(services, services.dialect.db, requireUser(req).id),
      PATCH: (req) => patchConfig(services, requireUser(req).id, req.body),
    },
  };
}

const CONFIG = { type: 'object', additionalProperties: true };

/** The OpenAPI description of `/api/users/config/` (src/api/openapi/route-doc.ts). */
const CONFIG_DOC: RouteDoc = {
  get: { summary: "The requesting user's config_data.", ok: [200, { schema: CONFIG }] },
  patch: { summary: "Deep-merge the body into the requesting user's config_data.", body: { schema: CONFIG }, errors: [400], ok: [200, { schema: CONFIG }] },
};

/** `/api/users/config/`: the caller's own config_data (any authenticated user; see models/users.json). */
export function registerUsersRoutes(app: FastifyInstance, services: Services): void {
  const handleConfig = fixedViewHandler(configView(services));
  app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/api/users/config/', config: { openapi: CONFIG_DOC, unversioned: true }, handler: (req, reply) => handleConfig(req, reply) });
}
