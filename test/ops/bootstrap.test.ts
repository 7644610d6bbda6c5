import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DB_URL, makeApp } from '../helpers/app.js';
import { ensureToken, ensureUser } from '../../src/ops/bootstrap.js';
import type { TestApp } from '../helpers/app.js';

// Processes started together on one empty PostgreSQL database each create the same superuser and
// token; SQLite has one writer, whose statements cannot interleave between the read and the insert.
describe('bootstrapping the same user from two starts at once', { skip: DB_URL.startsWith('postgres') ? false : 'runs with DATABASE_URL=postgres://...' }, () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());

  it('should give both the one user and the one token instead of failing the loser', async () => {
    const { services } = t.app;
    const opts = { username: 'raced-admin', password: 'secret-pass', superuser: true };
    const [first, second] = await Promise.all([ensureUser(services, opts), ensureUser(services, opts)]);
    assert.equal(first, second);
    const key = 'abcdefabcdefabcdefabcdefabcdefabcdefabcd';
    await Promise.all([ensureToken(services, { userId: first, key }), ensureToken(services, { userId: first, key })]);
    const res = await t.call('GET', '/api/users/tokens/', undefined, { token: key });
    assert.equal(res.status, 200);
    assert.equal(res.body.count, 1);
  });
});
