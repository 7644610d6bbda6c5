import type { Schema } from './field-schemas.js';

/**
 * A body named after the model it carries: the model's response schema, or with `write` its
 * request schema; `many` makes it a list (`array`), a page (`page`: `{count, next, previous,
 * results}`) or one object or a list (`either`).
 * @example { model: 'ipam.prefix', many: 'either' }
 */
export type ModelBody = { model: string; write?: boolean; many?: 'array' | 'page' | 'either' };

/** A request or response body: a model's schema, or an inline OpenAPI schema. */
export type BodyDoc = ModelBody | { schema: Schema };

/** A query parameter of an extra endpoint. */
export type QueryDoc = { schema: Schema; description?: string; required?: boolean };

/** One verb of an extra endpoint, as the OpenAPI document shows it. */
export type OperationDoc = {
  summary: string;
  /** Suffix of the operationId (`<path words>_<suffix>`); by default from the verb and response. */
  action?: string;
  /** Own query parameters by name. */
  query?: Record<string, QueryDoc>;
  /** Also takes every filter of this model id (generated and extension filters). */
  filtersOf?: string;
  /** Also takes `limit`, `offset`, `sort`, `depth`, `exclude_m2m` and `include`. */
  paging?: boolean;
  body?: BodyDoc;
  /** The body as `multipart/form-data` too (fields and files), when the endpoint takes it. */
  form?: BodyDoc;
  /** Success status and its body (none for 204). */
  ok: [number, BodyDoc | null];
  /** Error statuses beyond 403 (every /api/ path may answer 403). */
  errors?: number[];
};

/** Verb -> operation of an endpoint registered outside the generic model routes. */
export type RouteDoc = Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', OperationDoc>>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * OpenAPI description of an extra endpoint (`apps/<app>/routes.ts`); the document lists
     * every /api/ route that carries one (src/api/openapi/app-paths.ts).
     */
    openapi?: RouteDoc;
  }
}
