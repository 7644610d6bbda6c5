import { sql } from 'kysely';
import { ValidationError } from '../../../core/errors.js';
import { chunk, rowsPerStatement } from '../../../db/store.js';
import { endsOf, toNodeText } from './endpoints.js';
import type { PathNode } from './endpoints.js';
import type { Exec } from '../../../db/store.js';
import type { ResolvedModel, Row } from '../../../core/registry/types.js';
import type { Services } from '../../../ops/services.js';

type Ctx = { services: Services; exec: Exec };

/** One end of a cable: which side, the termination and the one at the other side. */
type CableEnd = { cable: Row; side: 'a' | 'b'; end: PathNode; peer: PathNode };

const PEER_COLUMNS = ['cable_id', 'cable_peer_type', 'cable_peer_id'];

function endsOfCables(cables: Row[]): CableEnd[] {
  return cables.flatMap((cable) => {
    const [a, b] = endsOf(cable);
    return [{ cable, side: 'a', end: a, peer: b }, { cable, side: 'b', end: b, peer: a }] as CableEnd[];
  });
}

function byType(ends: CableEnd[]): Map<string, CableEnd[]> {
  const out = new Map<string, CableEnd[]>();
  for (const end of ends) {
    const list = out.get(end.end.type) ?? [];
    list.push(end);
    out.set(end.end.type, list);
  }
  return out;
}

function taken(side: 'a' | 'b'): ValidationError {
  return new ValidationError({ [`termination_${side}`]: ['This termination already has a cable attached.'] });
}

/** The terminations of `ends`, by `app.model:uuid`: one query per termination type. */
async function readEnds({ services, exec }: Ctx, ends: CableEnd[]): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  for (const [type, list] of byType(ends)) {
    const rows = await services.store.byIds(exec, services.registry.get(type), list.map((e) => e.end.id));
    for (const row of rows) out.set(toNodeText({ type, id: row.id }), row);
  }
  return out;
}

/**
 * The first end, in the order the cables were given (a before b), that cannot take its cable:
 * missing, or held by another cable, stored or given earlier in the same batch.
 */
function firstTaken(ends: CableEnd[], rows: Map<string, Row>): CableEnd | undefined {
  const holder = new Map<string, unknown>();
  for (const item of ends) {
    const key = toNodeText(item.end);
    const row = rows.get(key);
    const current = holder.has(key) ? holder.get(key) : row?.cable_id ?? null;
    if (!row || (current !== null && current !== item.cable.id)) return item;
    holder.set(key, item.cable.id);
  }
  return undefined;
}

/**
 * `UPDATE <table> SET cable, cable peer FROM (VALUES (end id, cable id, peer type, peer id), ...)`,
 * guarded like a single row's update: attaching only ends that are free or already on the cable,
 * detaching only ends still on it. Returns the number of rows changed.
 */
async function setPeers({ services, exec }: Ctx, model: ResolvedModel, ends: CableEnd[], attach: boolean): Promise<number> {
  const { store } = services;
  const types = ['id', ...PEER_COLUMNS].map((c) => sql.raw(store.sqlType(model, c)));
  const ref = (c: string) => sql.ref(`${model.table}.${c}`);
  let changed = 0;
  for (const part of chunk(ends, rowsPerStatement(4))) {
    const tuples = part.map(({ cable, end, peer }) => {
      const values = [end.id, cable.id, peer.type, peer.id].map((v, i) => store.encodeColumn(model, ['id', ...PEER_COLUMNS][i], v));
      return sql`(${sql.join(values.map((v, i) => sql`CAST(${v} AS ${types[i]})`))})`;
    });
    const sets = attach
      ? PEER_COLUMNS.map((c, i) => sql`${sql.ref(c)} = v.${sql.raw(`column${i + 2}`)}`)
      : PEER_COLUMNS.map((c) => sql`${sql.ref(c)} = NULL`);
    const guard = attach ? sql`(${ref('cable_id')} IS NULL OR ${ref('cable_id')} = v.column2)` : sql`${ref('cable_id')} = v.column2`;
    const result = await sql`UPDATE ${sql.table(model.table)} SET ${sql.join(sets)} FROM (VALUES ${sql.join(tuples)}) AS v WHERE ${ref('id')} = ${store.dialect.probeKey(sql.raw('v.column1'))} AND ${guard}`.execute(exec);
    changed += Number(result.numAffectedRows ?? 0);
  }
  return changed;
}

/**
 * Points both ends of new cables at the cable and at each other (one statement per termination
 * type), and records each end's device on the cable. An end that is missing or already carries
 * another cable (stored, or an earlier cable of the same batch) is refused with a 400 naming the
 * first such end in the order given, as attaching them one by one would.
 */
export async function attachCables(ctx: Ctx, cables: Row[]): Promise<void> {
  if (cables.length === 0) return;
  const ends = endsOfCables(cables);
  const rows = await readEnds(ctx, ends);
  const refused = firstTaken(ends, rows);
  if (refused) throw taken(refused.side);
  for (const [type, list] of byType(ends)) {
    if ((await setPeers(ctx, ctx.services.registry.get(type), list, true)) < list.length) {
      // Taken between the read and the write (another transaction): name the end now held elsewhere.
      const now = await readEnds(ctx, list);
      throw taken((list.find((e) => now.get(toNodeText(e.end))?.cable_id !== e.cable.id) ?? list[0]).side);
    }
  }
  const device = (end: PathNode) => rows.get(toNodeText(end))?.device_id ?? null;
  const changes = cables.map((cable) => {
    const [a, b] = endsOf(cable);
    return { id: cable.id, values: { termination_a_device_id: device(a), termination_b_device_id: device(b) } };
  });
  await ctx.services.store.updateMany(ctx.exec, ctx.services.registry.get('dcim.cable'), changes);
}

/** Clears the cable and cable peer of both ends of cables about to go (ends still on them), one statement per termination type. */
export async function detachCables(ctx: Ctx, cables: Row[]): Promise<void> {
  for (const [type, list] of byType(endsOfCables(cables))) {
    const model = ctx.services.registry.find(type);
    if (model) await setPeers(ctx, model, list, false);
  }
}
