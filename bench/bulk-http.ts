/**
 * Bulk create, PATCH and DELETE of 1000 rooms and 1000 tenants over HTTP against the service in a
 * child process, exactly as `npm run bench` measures them, without the rest of the run; with the
 * service's main-thread CPU per round, steadier than wall time on a shared machine.
 *
 *   node --import tsx bench/bulk-http.ts     (the bench database, or DATABASE_URL; ROUNDS, default 5)
 */
import { ApiClient } from './lib/client.js';
import { measureBulk } from './lib/bulk.js';
import { loadFixtures } from './lib/fixtures.js';
import { discover } from './lib/catalog.js';
import { BENCH_TOKEN, BENCH_USER, benchDatabaseUrl } from './lib/env.js';
import { startChild } from './lib/server.js';
const url = benchDatabaseUrl();
const server = await startChild({ script: 'src/server.ts', env: { LOG_LEVEL: 'warn', SUPERUSER_NAME: BENCH_USER, SUPERUSER_API_TOKEN: BENCH_TOKEN, MAX_PAGE_SIZE: '0', WORKERS: '1', DATABASE_URL: url }, healthPath: '/health/' });
try {
  const client = new ApiClient(server.url, BENCH_TOKEN);
  const fx = await loadFixtures(client, await discover(client));
  const { rows } = await measureBulk(client, fx, { pid: server.pid, size: 1000, rounds: Number(process.env.ROUNDS ?? 5) });
  for (const r of rows) console.log(r.name.padEnd(32), Math.round(r.objectsPerSecond), 'obj/s, rounds ms:', r.roundsMs.map((m) => Math.round(m)).join(' '), ' server main thread ms:', r.serverMs.map((m) => Math.round(m)).join(' '));
} finally {
  await server.stop();
}
