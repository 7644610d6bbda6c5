/**
 * The bench's "bulk create 1000 locations + webhook" row (bench/lib/bulk-webhook.ts) beside the
 * plain bulk create of locations, without the rest of the run. Seeds the small data set when the
 * database is empty.
 *
 *   node --import tsx bench/bulk-webhook-http.ts     (the bench database, or DATABASE_URL; ROUNDS, default 3; SIZE, default 1000)
 */
import { ApiClient } from './lib/client.js';
import { measureBulk } from './lib/bulk.js';
import { measureBulkWithWebhook } from './lib/bulk-webhook.js';
import { loadFixtures } from './lib/fixtures.js';
import { discover } from './lib/catalog.js';
import { BENCH_TOKEN, BENCH_USER, benchDatabaseUrl } from './lib/env.js';
import { toScale } from './lib/scales.js';
import { startChild } from './lib/server.js';
import { seedDatabase } from './seed.js';

const url = benchDatabaseUrl();
const rounds = Number(process.env.ROUNDS ?? 3);
const size = Number(process.env.SIZE ?? 1000);
const server = await startChild({ script: 'src/server.ts', env: { LOG_LEVEL: 'warn', SUPERUSER_NAME: BENCH_USER, SUPERUSER_API_TOKEN: BENCH_TOKEN, MAX_PAGE_SIZE: '0', WORKERS: '1', DATABASE_URL: url, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, healthPath: '/health/' });
try {
  const client = new ApiClient(server.url, BENCH_TOKEN);
  if ((await client.count('/api/dcim/locations/')) === 0) await seedDatabase(client, { scale: toScale('small') });
  const fx = await loadFixtures(client, await discover(client));
  const plain = await measureBulk(client, fx, { pid: server.pid, size, rounds });
  const hooked = await measureBulkWithWebhook(client, fx, { pid: server.pid, size, rounds });
  for (const r of [...plain.rows.filter((row) => row.name.startsWith('bulk create') && row.name.includes('locations')), ...hooked.rows]) {
    console.log(r.name.padEnd(40), Math.round(r.objectsPerSecond), 'obj/s, rounds ms:', r.roundsMs.map((m) => Math.round(m)).join(' '), ' server main thread ms:', r.serverMs.map((m) => Math.round(m)).join(' '));
  }
  for (const note of [...plain.notes, ...hooked.notes]) console.log(note);
} finally {
  await server.stop();
}
