import { registerMembersRoute } from './dynamic-groups/members-route.js';
import { registerSecretCheckRoute } from './secrets/check-route.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../ops/services.js';

/** Extras endpoints beyond the generic model routes: the secret check and dynamic group members. */
export function registerExtrasRoutes(app: FastifyInstance, services: Services): void {
  registerSecretCheckRoute(app, services);
  registerMembersRoute(app, services);
}
