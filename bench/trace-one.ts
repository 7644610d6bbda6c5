/** Prints the SQL statements (SQL_TRACE=1) one GET costs, in process. */
import { buildBenchApp } from './lib/local-app.js';
import { BENCH_TOKEN } from './lib/env.js';

const app = await buildBenchApp(process.env.DATABASE_URL || `sqlite:${process.cwd()}/bench/.data/bench.sqlite3`);
const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache' };
await app.inject({ method: 'GET', url: process.argv[2], headers });
process.stderr.write('--- measured request\n');
await app.inject({ method: 'GET', url: process.argv[2], headers });
await app.close();
