import { jsonBuffer } from '../../core/json-buffer.js';
import type { FastifyReply } from 'fastify';

/**
 * JSON with the reference's bare `application/json` content type; a success body is encoded
 * piece by piece (jsonBuffer: a bulk write's 1000 objects one by one, each in one piece: opening
 * them too made a string per key and value, about 10 kB of garbage per object), an error keeps
 * its text (the CSV error rendering reads it).
 */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return sendJsonText(reply, status, status < 400 ? jsonBuffer(body, Array.isArray(body) ? 1 : 2) : JSON.stringify(body));
}

/**
 * Already serialized JSON, sent as bytes: Fastify appends `; charset=utf-8` to a JSON content
 * type sent with a string, and the reference sends the bare `application/json`.
 */
export function sendJsonText(reply: FastifyReply, status: number, text: string | Buffer): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send(typeof text === 'string' ? Buffer.from(text) : text);
}

export function sendEmpty(reply: FastifyReply): FastifyReply {
  return reply.code(204).removeHeader('content-type').send();
}
