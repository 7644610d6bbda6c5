/**
 * Server time of the web interface's pages on a seeded database, in process (inject: no network):
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 npx tsx bench/ui-pages.ts [--runs 5]
 *
 * Logs in as the bench superuser through /login/ (the bench token's user gets a password first),
 * then asks each page `runs` times and prints the median and the slowest, in milliseconds.
 */
import { hashPassword } from '../src/core/passwords.js';
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_USER, benchDatabaseUrl } from './lib/env.js';
import type { FastifyInstance } from 'fastify';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;

function cookiesOf(res: { headers: Record<string, unknown> }, jar: Map<string, string>): void {
  const raw = res.headers['set-cookie'];
  for (const line of (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[]) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

async function login(app: FastifyInstance): Promise<string> {
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

async function firstId(app: FastifyInstance, table: string): Promise<string> {
  const row = await app.services.dialect.db.selectFrom(table).select('id').limit(1).executeTakeFirst();
  return String(row?.id);
}

async function main(): Promise<void> {
  const app = await buildBenchApp(benchDatabaseUrl(), { migrate: true });
  const cookie = await login(app);
  const device = await firstId(app, 'dcim_device');
  const rack = await firstId(app, 'dcim_rack');
  const prefix = await firstId(app, 'ipam_prefix');
  const counts = await app.services.dialect.db.selectFrom('dcim_interface').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const only = process.argv.includes('--only') ? [process.argv[process.argv.indexOf('--only') + 1]] : undefined;
  const pages = only ?? ['/', '/dcim/interfaces/', '/dcim/interfaces/?q=eth&sort=-name', '/dcim/interfaces/?page=100', '/dcim/devices/', `/dcim/devices/${device}/`, `/dcim/racks/${rack}/`, `/ipam/prefixes/${prefix}/`, '/ipam/ip-addresses/', '/dcim/devices/add/', '/search/?q=leaf', '/extras/object-changes/'];
  console.log(`interfaces: ${String(counts?.n)}; runs per page: ${runs}`);
  console.log('page | status | statements | median ms | max ms | median CPU ms');
  for (const url of pages) {
    const times: number[] = [];
    const cpu: number[] = [];
    let status = 0;
    let statements = 0;
    for (let i = 0; i < runs; i += 1) {
      const before = app.services.dialect.queryCount();
      const start = process.hrtime.bigint();
      const used = process.cpuUsage();
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      const spent = process.cpuUsage(used);
      cpu.push((spent.user + spent.system) / 1000);
      status = res.statusCode;
      statements = app.services.dialect.queryCount() - before;
      if (process.argv.includes('--print') && i === 0) console.log(res.body);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    console.log(`${url} | ${status} | ${statements} | ${times[Math.floor(times.length / 2)].toFixed(1)} | ${times.at(-1)!.toFixed(1)} | ${cpu[Math.floor(cpu.length / 2)].toFixed(1)}`);
  }
  await app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
