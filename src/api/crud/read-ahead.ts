import { toRowId } from '../../core/registry/row-id.js';
import { TRUE } from '../../db/query/sql-helpers.js';
import { NON_FILTER_PARAMS } from '../../ops/filters/apply.js';
import { readRowsPage } from '../../ops/read.js';
import { readLinksAndCounts } from '../../ops/serialize/index.js';
import { baseUrl, queryParams } from '../request-context.js';
import { attempt, parsePaging, serializeOptions } from './query.js';
import type { FastifyRequest } from 'fastify';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { RowsPage } from '../../ops/read.js';
import type { LinksAndCounts } from '../../ops/serialize/index.js';
import type { Services } from '../../ops/services.js';

/**
 * A GET's first reads started while its reader is still being authenticated (issue 22): on
 * PostgreSQL the token and the write generation are read in a round trip of their own, and a
 * detail's row, links and counts need only the id from the path, an unfiltered list's page and
 * count only its paging, so they go out in that same batch. They are read as an unrestricted
 * reader sees them: the handler uses them only when the actual reader's scope turns out
 * unrestricted (otherwise it reads again within it), and only after the same permission checks,
 * so nothing read ahead reaches a reader who may not see it. A request that fails authentication
 * drops them.
 */
export type ReadAhead = {
  model: ResolvedModel;
  /** What was read: the detail's id, or the list's paging and order (`listKey`). */
  key: string;
  detail?: { row: Promise<Row | undefined>; links: LinksAndCounts };
  page?: Promise<RowsPage>;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Reads started before authentication ended, for the handler to take (`takeReadAhead`). */
    readAhead: ReadAhead | null;
  }
}

/** A list read's key: its paging and order. */
export function listKey(limit: number | null, offset: number, sort: string | undefined): string {
  return `${limit}|${offset}|${sort ?? ''}`;
}

/** Whether the request is a GET this module reads ahead for (JSON: CSV reads otherwise). */
function canReadAhead(req: FastifyRequest, model: ResolvedModel | undefined): model is ResolvedModel {
  return !!model && (req.method === 'GET' || req.method === 'HEAD') && !req.wantsCsv;
}

/** Never an unhandled rejection for a read left unused (authentication failed, a narrower scope). */
function quiet<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}

/**
 * Starts the reads of a detail GET of `model`'s object named by id; nothing when the path names
 * it otherwise (a natural key) or when an option is invalid (its 400 comes after the 404 of a
 * missing object). The links and counts follow the options the handler makes of the same query
 * (exclude_m2m).
 */
export function readDetailAhead(services: Services, req: FastifyRequest, model: ResolvedModel | undefined): void {
  if (!canReadAhead(req, model)) return;
  const id = toRowId(model, (req.params as { key?: string }).key ?? '');
  if (typeof id !== 'string') return;
  const options = attempt(() => serializeOptions(queryParams(req), baseUrl(req), { method: req.method }));
  if (!options) return;
  const { db } = services.dialect;
  const links = readLinksAndCounts(services, db, model, [id], options);
  quiet(links.read);
  req.readAhead = { model, key: id, detail: { row: quiet(services.store.byId(db, model, id)), links } };
}

/** Starts the page and count of a list GET of `model` without filters (any other parameter filters). */
export function readListAhead(services: Services, req: FastifyRequest, model: ResolvedModel | undefined): void {
  if (!canReadAhead(req, model)) return;
  const params = queryParams(req);
  for (const name of params.keys()) if (!NON_FILTER_PARAMS.has(name)) return;
  const paging = parsePaging(params, services.config);
  const sort = params.get('sort')?.at(-1);
  const page = quiet(readRowsPage(services, model, TRUE, { ...paging, sort }));
  req.readAhead = { model, key: listKey(paging.limit, paging.offset, sort), page };
}

/** The reads started ahead for this request's `model` and `key`, once (a second call gets none). */
export function takeReadAhead(req: FastifyRequest, model: ResolvedModel, key: string): ReadAhead | undefined {
  const ahead = req.readAhead;
  req.readAhead = null;
  return ahead && ahead.model === model && ahead.key === key ? ahead : undefined;
}
