import pg from 'pg';

/**
 * PostgreSQL: `VACUUM ANALYZE` of the whole database after a seed, what autovacuum does on a
 * server with its default settings. The servers here run with autovacuum off, so a freshly
 * seeded database would otherwise be planned from default estimates and counted without a
 * visibility map (a count of 102 000 interfaces read the whole table: 20-40 ms). SQLite: nothing.
 */
export async function vacuumAnalyze(url: string): Promise<number> {
  if (!url.startsWith('postgres')) return 0;
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
  return (performance.now() - started) / 1000;
}
