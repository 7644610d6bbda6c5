import { registerConnectedDeviceRoute } from './cables/connected-device.js';
import { registerConnectionRoutes } from './cables/connections.js';
import { registerTraceRoutes } from './cables/trace-routes.js';
import { registerRackElevationRoute } from './racks/elevation-route.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../ops/services.js';

/**
 * DCIM endpoints beyond the generic model routes: `trace/` and `paths/` on cable terminations,
 * the console/power/interface connection lists, the connected-device locator, rack elevations.
 */
export function registerDcimRoutes(app: FastifyInstance, services: Services): void {
  registerTraceRoutes(app, services);
  registerConnectionRoutes(app, services);
  registerConnectedDeviceRoute(app, services);
  registerRackElevationRoute(app, services);
}
