import { registerGraphiqlPage } from './graphiql-page.js';
import { registerGraphqlRoutes } from './routes.js';
import { registerSavedQueryRoutes } from './saved-queries.js';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../ops/services.js';

/** GraphQL: the API endpoint, saved queries' `run`, and the GraphiQL page. */
export function registerGraphql(app: FastifyInstance, services: Services): void {
  registerGraphqlRoutes(app, services);
  registerSavedQueryRoutes(app, services);
  registerGraphiqlPage(app, services);
}
