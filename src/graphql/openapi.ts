import type { RouteDoc } from '../api/openapi/route-doc.js';

const REQUEST = {
  type: 'object',
  required: ['query'],
  properties: {
    query: { type: 'string', description: 'A GraphQL query (read operations only).' },
    variables: { type: 'object', additionalProperties: true, description: 'Values of the variables the query declares.' },
    operationName: { type: 'string', description: 'The operation to run when the query holds several.' },
  },
};

const ERRORS = { type: 'array', items: { type: 'object', properties: { message: { type: 'string' }, locations: { type: 'array', items: { type: 'object' } }, path: { type: 'array', items: {} } } } };

/** The OpenAPI description of `POST /api/graphql/` (the reference's: `data` on success, `errors` when the query cannot run). */
export const GRAPHQL_DOC: RouteDoc = {
  post: {
    summary: 'Query the database using a GraphQL query',
    action: 'create',
    body: { schema: REQUEST },
    ok: [200, { schema: { type: 'object', properties: { errors: ERRORS, data: { type: 'object', additionalProperties: true } } } }],
    errors: [400],
  },
};

/** The OpenAPI description of `POST /api/extras/graphql-queries/{id}/run/`. */
export const RUN_DOC: RouteDoc = {
  post: {
    summary: 'Run a saved GraphQL query with the given variables',
    action: 'create',
    body: { schema: { type: 'object', properties: { variables: { type: 'object', additionalProperties: true, nullable: true, default: {} } } } },
    ok: [200, { schema: { type: 'object', properties: { errors: ERRORS, data: { type: 'object', additionalProperties: true } } } }],
    errors: [400, 404],
  },
};
