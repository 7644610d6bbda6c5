import { sql } from 'kysely';
import { once } from 'node:events';
import { buildOrder } from '../../db/query/sort.js';
import { readPage } from '../../db/query/page.js';
import { and, col } from '../../db/query/sql-helpers.js';
import { scopeClause } from '../../ops/read.js';
import { serialize } from '../../ops/serialize/index.js';
import { latestSeq, onPublished, publishedAfter } from '../../events/stream-feed.js';
import { queryParams, toRequestContext } from '../request-context.js';
import { serializeOptions } from '../crud/query.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../ops/services.js';

/** Published changes read per statement. */
const BATCH = 200;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

type Stream = { services: Services; req: FastifyRequest; reply: FastifyReply; params: Map<string, string[]> };

/** The cursor a reader resumes from: its `Last-Event-ID` (a seq), else the latest change (live only). */
async function startCursor(services: Services, req: FastifyRequest): Promise<number> {
  const header = req.headers['last-event-id'];
  const text = Array.isArray(header) ? header[0] : header;
  if (text !== undefined && /^\d+$/.test(text.trim())) return Number(text.trim());
  return latestSeq(services);
}

/** The change records among `ids` the reader may see and its filters select, rendered as the list renders them, by id. */
async function visibleChanges(s: Stream, ids: string[]): Promise<Map<string, unknown>> {
  const { services, req, params } = s;
  const model = services.registry.get('extras.objectchange');
  const rc = toRequestContext(req, '');
  const scope = await scopeClause(services, rc, model, params, 'view', services.dialect.db);
  const where = and([scope, () => sql<boolean>`${col(model.table, 'id')} IN (${sql.join(ids)})`]);
  const page = await readPage({ exec: services.dialect.db, model, where, terms: buildOrder(services.registry, model, undefined), limit: null, offset: 0, counted: false });
  const rows = page.rows.map((r) => services.store.decode(model, r));
  const rendered = await serialize(services, services.dialect.db, model, rows, serializeOptions(params, rc.baseUrl, { method: 'GET' }));
  return new Map(rows.map((row, i) => [String(row.id), rendered[i]]));
}

/** Writes one chunk, waiting for the socket to drain when it is full. */
async function send(reply: FastifyReply, text: string): Promise<void> {
  if (!reply.raw.write(text)) await Promise.race([once(reply.raw, 'drain'), once(reply.raw, 'close')]);
}

/** Sends every published change after `cursor` the reader may see; returns the new cursor. */
async function catchUp(s: Stream, cursor: number): Promise<number> {
  for (;;) {
    const batch = await publishedAfter(s.services, cursor, BATCH);
    if (batch.length === 0) return cursor;
    const visible = await visibleChanges(s, batch.map((b) => b.changeId));
    for (const item of batch) {
      const change = visible.get(item.changeId);
      if (change !== undefined) await send(s.reply, `id: ${item.seq}\ndata: ${JSON.stringify(change)}\n\n`);
    }
    cursor = batch[batch.length - 1].seq;
    if (batch.length < BATCH) return cursor;
  }
}

/**
 * `GET /api/extras/object-changes/stream/` (beyond the reference): Server-Sent Events, one per
 * change record as it commits (`id:` its publication seq, `data:` the record as the list renders
 * it), with the list's filters and the reader's view permission and constraints. A reader that
 * reconnects with `Last-Event-ID` gets every change after that one, in order, once. Readers are
 * woken by this process's publisher and, on PostgreSQL, by NOTIFY from other processes.
 */
async function streamChanges(services: Services, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const params = queryParams(req);
  const model = services.registry.get('extras.objectchange');
  // Permission and filters are checked before the stream opens (403, 400 as the list answers).
  await scopeClause(services, toRequestContext(req, ''), model, params, 'view', services.dialect.db);
  let cursor = await startCursor(services, req);
  const s: Stream = { services, req, reply, params };
  let pending = true;
  let wake: (() => void) | null = null;
  const stopListening = await onPublished(services, () => {
    pending = true;
    wake?.();
  });
  let closed = false;
  reply.raw.on('close', () => {
    closed = true;
    wake?.();
  });
  reply.hijack();
  req.raw.socket.setTimeout(0);
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  reply.raw.write('retry: 2000\n\n');
  try {
    while (!closed) {
      if (pending) {
        pending = false;
        cursor = await catchUp(s, cursor);
        continue;
      }
      const timedOut = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), KEEPALIVE_MS);
        wake = () => {
          clearTimeout(timer);
          resolve(false);
        };
      });
      wake = null;
      if (timedOut && !closed) {
        await send(reply, ': keepalive\n\n');
        // SQLite with several processes has no NOTIFY: a quiet reader also looks for itself.
        pending = true;
      }
    }
  } catch (err) {
    if (!closed) req.log.error(err, 'change stream failed');
  } finally {
    stopListening();
    reply.raw.end();
  }
}

export function registerChangeStream(app: FastifyInstance, services: Services): void {
  app.get('/api/extras/object-changes/stream/', {
    config: { openapi: { get: {
      summary: 'Server-Sent Events: each change record as it commits (id: its sequence number; resume with Last-Event-ID).',
      action: 'stream', filtersOf: 'extras.objectchange', ok: [200, { schema: { type: 'string' } }], errors: [400],
    } } },
  }, (req, reply) => streamChanges(services, req, reply));
}
