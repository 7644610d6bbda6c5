import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TransactionEscapeError } from '../../src/core/errors.js';
import { TOKEN, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/** A promise and its resolve function. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => { open = resolve; });
  return { promise, open };
}

/**
 * A process that builds the service (its start-up runs transactions), writes once and reads:
 * prints the async id a promise continuation then runs under (0 when no promise hooks are on).
 */
const PROBE = `
import { executionAsyncId } from 'node:async_hooks';
const { buildApp } = await import(${JSON.stringify(new URL('../../src/api/app.ts', import.meta.url).pathname)});
const { loadConfig } = await import(${JSON.stringify(new URL('../../src/core/config.ts', import.meta.url).pathname)});
const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', SUPERUSER_NAME: 'admin', SUPERUSER_API_TOKEN: '${TOKEN}', QUEUE_EMBEDDED: 'false', IDLE_GC_MS: '0' });
const app = await buildApp({ config });
const headers = { authorization: 'Token ${TOKEN}', 'content-type': 'application/json' };
const made = await app.inject({ method: 'POST', url: '/api/extras/tags/', headers, payload: JSON.stringify({ name: 'probe', content_types: ['dcim.device'] }) });
const read = await app.inject({ method: 'GET', url: '/api/extras/tags/', headers });
await null;
console.log(JSON.stringify({ made: made.statusCode, read: read.statusCode, id: executionAsyncId() }));
await app.close();
`;

describe('transaction guard', () => {
  let t: TestApp;
  before(async () => { t = await makeApp(); });
  after(async () => t.close());

  it('should refuse the root handle inside a transaction begun after an earlier one ended', async () => {
    const db = t.app.services.dialect.db;
    await db.transaction().execute(async (trx) => trx.selectFrom('users_user').select('id').execute());
    await assert.rejects(db.transaction().execute(async () => db.selectFrom('users_user').select('id').execute()), TransactionEscapeError);
    assert.equal((await db.selectFrom('users_user').select('id').execute()).length > 0, true);
  });

  it('should still refuse it in a transaction that outlives another one', async () => {
    const db = t.app.services.dialect.db;
    const [release, firstEnded] = [gate(), gate()];
    const first = db.transaction().execute(async (trx) => {
      await trx.selectFrom('users_user').select('id').execute();
      await release.promise;
    });
    const second = db.transaction().execute(async (trx) => {
      await trx.selectFrom('users_user').select('id').execute();
      await firstEnded.promise;
      await db.selectFrom('users_user').select('id').execute();
    });
    release.open();
    await first;
    firstEnded.open();
    await assert.rejects(second, TransactionEscapeError);
  });

  it('should leave no promise hooks on in a process between its writes (Node 20: an enabled AsyncLocalStorage keeps them on)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', PROBE], { cwd: new URL('../..', import.meta.url).pathname });
    const probe = JSON.parse(stdout.trim().split('\n').at(-1) as string);
    assert.deepEqual(probe, { made: 201, read: 200, id: 0 });
  });
});
