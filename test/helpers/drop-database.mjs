// Drops one test database: `node drop-database.mjs <server url> <name>` (test/helpers/pg-database.ts
// runs it detached, so no test waits for the checkpoint DROP DATABASE forces). Plain JavaScript: no
// loader needed.
import pg from 'pg';

const [serverUrl, name] = process.argv.slice(2);
if (!/^[a-z_][a-z0-9_]*$/.test(name ?? '')) throw new Error(`not a database name: ${name}`);
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
try {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
} finally {
  await admin.end();
}
