/**
 * Server time of the web interface's main pages on the bench data set, in process (inject: no
 * network), through a real login: the list of 102 000 interfaces with its filter form (plain,
 * filtered, searched, a far page), a device, a rack, a prefix, the global search, the change log.
 * Issue 23 asks every page under 100 ms server time at medium scale.
 */
import { hashPassword } from '../../src/core/passwords.js';
import { BENCH_USER } from './env.js';
import type { FastifyInstance } from 'fastify';

/** One page's figures: wall time (median and slowest of `runs`), statements and CPU time per request. */
export type UiPageRow = { page: string; status: number; statements: number; medianMs: number; maxMs: number; cpuMs: number };

/** Issue 23's budget for every page's server time. */
export const UI_PAGE_BUDGET_MS = 100;

function cookiesOf(res: { headers: Record<string, unknown> }, jar: Map<string, string>): void {
  const raw = res.headers['set-cookie'];
  for (const line of (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[]) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** Logs the bench superuser in through /login/ (its password set first); returns the Cookie header. */
export async function loginCookie(app: FastifyInstance): Promise<string> {
  const password = 'bench-ui-password';
  await app.services.dialect.db.updateTable('users_user').set({ password: await hashPassword(password) }).where('username', '=', BENCH_USER).execute();
  const jar = new Map<string, string>();
  cookiesOf(await app.inject({ method: 'GET', url: '/login/' }), jar);
  const body = new URLSearchParams({ csrfmiddlewaretoken: jar.get('csrftoken') ?? '', username: BENCH_USER, password }).toString();
  const res = await app.inject({ method: 'POST', url: '/login/', payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
  cookiesOf(res, jar);
  if (!jar.get('sessionid')) throw new Error(`login failed: ${res.statusCode}`);
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

async function firstId(app: FastifyInstance, table: string, where?: [string, string]): Promise<string> {
  let query = app.services.dialect.db.selectFrom(table).select('id').orderBy('id').limit(1);
  if (where) query = query.where(where[0], '=', where[1]);
  const row = await query.executeTakeFirst();
  return String(row?.id);
}

/** The pages measured, with ids of the seeded data (a device with interfaces, a rack, a prefix). */
export async function uiPages(app: FastifyInstance): Promise<string[]> {
  const device = await firstId(app, 'dcim_device');
  const rack = await firstId(app, 'dcim_rack');
  const prefix = await firstId(app, 'ipam_prefix');
  return ['/', '/dcim/interfaces/', `/dcim/interfaces/?device=${device}`, '/dcim/interfaces/?type=1000base-t&enabled=true', '/dcim/interfaces/?q=eth&sort=-name', '/dcim/interfaces/?page=100',
    '/dcim/devices/', `/dcim/devices/${device}/`, `/dcim/racks/${rack}/`, `/ipam/prefixes/${prefix}/`, '/ipam/ip-addresses/', '/dcim/devices/add/', '/search/?q=leaf', '/search/?q=10.0.1', '/extras/object-changes/'];
}

/** Asks each page `runs` times (after one unmeasured request) with the session cookie. */
export async function measureUiPages(app: FastifyInstance, opts: { runs: number; pages?: string[]; print?: boolean }): Promise<UiPageRow[]> {
  const cookie = await loginCookie(app);
  const rows: UiPageRow[] = [];
  for (const page of opts.pages ?? await uiPages(app)) {
    await app.inject({ method: 'GET', url: page, headers: { cookie } });
    const times: number[] = [];
    const cpu: number[] = [];
    let [status, statements] = [0, 0];
    for (let i = 0; i < opts.runs; i += 1) {
      const before = app.services.dialect.queryCount();
      const used = process.cpuUsage();
      const start = process.hrtime.bigint();
      const res = await app.inject({ method: 'GET', url: page, headers: { cookie } });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      const spent = process.cpuUsage(used);
      cpu.push((spent.user + spent.system) / 1000);
      [status, statements] = [res.statusCode, app.services.dialect.queryCount() - before];
      if (opts.print && i === 0) console.log(res.body);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    rows.push({ page, status, statements, medianMs: median(times), maxMs: Math.max(...times), cpuMs: median(cpu) });
  }
  return rows;
}

/** The Markdown table of the figures. */
export function uiPagesTable(rows: UiPageRow[]): string[] {
  return ['| page | status | SQL/req | median ms | max ms | CPU ms/req |', '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.page.replace(/\|/g, '\\|')} | ${r.status} | ${r.statements} | ${r.medianMs.toFixed(1)}${r.medianMs > UI_PAGE_BUDGET_MS ? ' (over budget)' : ''} | ${r.maxMs.toFixed(1)} | ${r.cpuMs.toFixed(1)} |`)];
}
