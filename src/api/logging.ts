import PinoPretty from 'pino-pretty';
import type { Logger } from 'pino';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../core/config.js';

/** Where log lines go and whether that is a terminal (standard output unless a test says otherwise). */
export type LogTarget = { stream?: NodeJS.WritableStream; tty?: boolean };

/** Keys of the request line that the pretty format already shows in the message. */
const SHOWN_IN_MESSAGE = 'pid,hostname,reqId,method,url,route,status,ms';

/** True when log lines should be pretty: LOG_FORMAT=pretty, or `auto` on a terminal. */
export function isPretty(config: Config, target: LogTarget): boolean {
  if (config.logFormat !== 'auto') return config.logFormat === 'pretty';
  return target.tty ?? Boolean(process.stdout.isTTY);
}

/**
 * Fastify's logger (pino): JSON lines when piped (one object per line, for log shippers), or
 * one readable, coloured line per event on a terminal (pino-pretty, written synchronously).
 */
export function buildLogger(config: Config, target: LogTarget = {}): FastifyServerOptions['logger'] {
  if (!isPretty(config, target)) return target.stream ? { level: config.logLevel, stream: target.stream } : { level: config.logLevel };
  const stream = PinoPretty({
    colorize: target.tty ?? Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: SHOWN_IN_MESSAGE,
    singleLine: true,
    sync: true,
    ...(target.stream ? { destination: target.stream } : {}),
  });
  return { level: config.logLevel, stream };
}

/**
 * One line per request when it ends (Fastify's own two lines, received and completed, are off):
 * `GET /api/dcim/devices/?limit=1 200 3.1 ms`, with method, url, status and ms as fields in JSON.
 * A 5xx is logged at error level (its cause is logged apart by the error handler).
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    logRequest(req, reply);
    done();
  });
}

/** The request's line, at error level for a 5xx; nothing is built when that level is off (LOG_LEVEL=warn drops every other line). */
function logRequest(req: FastifyRequest, reply: FastifyReply): void {
  const status = reply.statusCode;
  if ((req.log as Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.(status >= 500 ? 'error' : 'info') === false) return;
  const ms = Math.round(reply.elapsedTime * 10) / 10;
  const line = { method: req.method, url: req.url, status, ms };
  const message = `${req.method} ${req.url} ${status} ${ms} ms`;
  if (status >= 500) req.log.error(line, message);
  else req.log.info(line, message);
}
