/**
 * Server time of the web interface's pages on a seeded database, in process (inject: no network):
 *
 *   DATABASE_URL=sqlite:bench/.data/bench.sqlite3 npx tsx bench/ui-pages.ts [--runs 5] [--only <url>] [--print]
 *
 * Logs in as the bench superuser through /login/, asks each page `runs` times and prints a table:
 * statements, median and slowest wall time, median CPU time (steadier on a loaded machine).
 * SQL_TRACE=1 prints each statement with its time. `npm run bench` reports the same table.
 */
import os from 'node:os';
import { buildBenchApp } from './lib/local-app.js';
import { benchDatabaseUrl } from './lib/env.js';
import { measureUiPages, uiPagesTable } from './lib/ui-pages.js';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

async function main(): Promise<void> {
  const app = await buildBenchApp(benchDatabaseUrl(), { migrate: true });
  const only = arg('--only');
  const rows = await measureUiPages(app, { runs: Number(arg('--runs')) || 5, pages: only ? [only] : undefined, print: process.argv.includes('--print') });
  console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(uiPagesTable(rows).join('\n'));
  await app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
