import { registerChangeViews } from './changes.js';
import { registerDeviceViews } from './device.js';
import { registerPrefixViews } from './prefix.js';
import { registerRackViews } from './rack.js';
import { registerSearch } from './search.js';
import { registerTraceView } from './trace.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../ops/services.js';

/** What the generic pages gain for some models (elevations, address space, interfaces, diffs), and the global search. */
export function registerDomainViews(app: FastifyInstance, services: Services): void {
  registerRackViews();
  registerPrefixViews(app, services);
  registerDeviceViews();
  registerChangeViews();
  registerSearch(app, services);
  registerTraceView(app, services);
}
