import { AppError, BadRequestError, MethodNotAllowedError, PayloadTooLargeError, UnavailableError } from '../../core/errors.js';
import { isUnversionedRoute } from './versioning.js';
import { routeConfig } from '../request-context.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Sends an AppError in the reference's shape, with API-Version unless it is unversioned. */
export function sendError(req: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  reply.code(err.status);
  // DRF sends a view's Allow on every response of the view, errors before the handler included.
  const { allow } = routeConfig(req);
  if (allow && !reply.hasHeader('Allow')) {
    const value = allow(req);
    if (value) reply.header('Allow', value);
  }
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  if (err.versioned && req.apiVersion && !isUnversionedRoute(req)) reply.header('API-Version', req.apiVersion);
  else reply.removeHeader('API-Version');
  // Bytes, so Fastify adds no charset to the reference's bare `application/json`.
  return reply.header('content-type', 'application/json').send(Buffer.from(JSON.stringify(err.body)));
}

function fromFastifyError(req: FastifyRequest, err: FastifyError): AppError | undefined {
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return undefined;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new PayloadTooLargeError(`Request body is larger than ${req.server.services.config.limits.bodyMb} MB (MAX_BODY_MB).`);
  }
  const driver = req.server.services?.dialect.errorKind(err);
  if (driver?.kind === 'statement_timeout') {
    return new UnavailableError(`The database cancelled this request's query after ${req.server.services.config.statementTimeoutMs} ms (STATEMENT_TIMEOUT_MS). Narrow the filters or the page.`);
  }
  if (driver?.kind === 'invalid_regex') return new BadRequestError(driver.message);
  if (driver?.kind === 'unique_violation') return new BadRequestError('An object with these unique values was written at the same time by another request.');
  if (driver?.kind === 'write_conflict') return new UnavailableError('This write conflicted with concurrent writes and was rolled back; send it again.');
  if (err.statusCode === 405) return new MethodNotAllowedError('?', '');
  return undefined;
}

/**
 * An unexpected error in the reference's 500 shape, with fixed texts: the cause (exception
 * class, driver message, SQL) goes to the log only, never to the client (issue 17).
 */
export function sendInternalError(reply: FastifyReply): FastifyReply {
  reply.code(500).header('content-type', 'application/json');
  return reply.send(Buffer.from(JSON.stringify({ error: 'Internal server error; the cause is in the server log.', exception: 'InternalServerError', nautobot_version: '2.4.36', python_version: `node ${process.versions.node.split('.')[0]}` })));
}

/** One error handler for the whole API (STYLE.md section 6). */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError && err.status >= 500 && err.code !== 'INV_ERR_UNAVAILABLE') {
      req.log.error(err);
      return sendInternalError(reply);
    }
    if (err instanceof AppError) return sendError(req, reply, err);
    const mapped = fromFastifyError(req, err);
    if (mapped) return sendError(req, reply, mapped);
    if (err.statusCode && err.statusCode < 500) {
      return sendError(req, reply, new AppError({ code: 'INV_ERR_BAD_REQUEST', body: { detail: err.message } }));
    }
    req.log.error(err);
    return sendInternalError(reply);
  });
}
