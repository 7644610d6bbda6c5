import { buildBenchApp } from './local-app.js';
import { BENCH_TOKEN, benchDatabaseUrl } from './env.js';

/**
 * For the body dumps (dump-bodies.ts, dump-deep-pages.ts): the service in process on the bench
 * database, and a GET that renders afresh and prints `<url> <status> <body>` as one line.
 */
export async function bodyDumper(): Promise<{ app: Awaited<ReturnType<typeof buildBenchApp>>; get(url: string): Promise<string> }> {
  const app = await buildBenchApp(benchDatabaseUrl(), { migrate: false });
  const headers = { authorization: `Token ${BENCH_TOKEN}`, accept: 'application/json', 'cache-control': 'no-cache' };
  return {
    app,
    async get(url) {
      const res = await app.inject({ method: 'GET', url, headers });
      process.stdout.write(`${url} ${res.statusCode} ${res.body}\n`);
      return res.body;
    },
  };
}
