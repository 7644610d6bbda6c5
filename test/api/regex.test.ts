import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import { DB_URL, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/** Issue 17, defect 2: no regular expression can stall the service; one that cannot run is a 400 naming the filter. */
const PG = DB_URL.startsWith('postgres');
const GUARD = { timeout: 30_000 };
const EVIL = encodeURIComponent('(a+)+$');
const UNSUPPORTED = 'Backreferences and lookaround are not supported: patterns run on a linear-time engine (RE2 syntax).';
let t: TestApp;

before(async () => {
  t = await makeApp();
  await create(t, '/api/tenancy/tenants/', Array.from({ length: 50 }, (_, i) => ({ name: `${'a'.repeat(40 + i)}!` })));
  await create(t, '/api/extras/custom-fields/', { label: 'Code', key: 'code', type: 'text', content_types: ['tenancy.tenant'] });
});
after(() => t.close());

describe('GET /api/tenancy/tenants/ with a catastrophic pattern', () => {
  for (const [lookup, count] of [['re', 0], ['ire', 0], ['nre', 50], ['nire', 50]] as const) {
    it(`should answer name__${lookup}=(a+)+$ over 50 names like aaaa…a! at once`, GUARD, async () => {
      const res = await t.call('GET', `/api/tenancy/tenants/?name__${lookup}=${EVIL}&limit=1`);
      assert.equal(res.status, 200, res.raw);
      assert.equal(res.body.count, count);
    });
  }

  it('should still match what the pattern matches', GUARD, async () => {
    const res = await t.call('GET', `/api/tenancy/tenants/?name__re=${encodeURIComponent('^a{40}!$')}`);
    assert.equal(res.body.count, 1);
    const ci = await t.call('GET', `/api/tenancy/tenants/?name__ire=${encodeURIComponent('^A{41}!$')}`);
    assert.equal(ci.body.count, 1);
  });
});

describe('GET with a pattern that cannot run', () => {
  it('should answer an invalid pattern with a 400 naming the filter', GUARD, async () => {
    const res = await t.call('GET', `/api/tenancy/tenants/?name__re=${encodeURIComponent('(a')}`);
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(Object.keys(res.body), ['name__re']);
    assert.match(res.body.name__re[0], /^Invalid regular expression: /);
  });

  it('should answer an invalid pattern on a custom field filter with a 400 naming the filter', GUARD, async () => {
    const res = await t.call('GET', `/api/tenancy/tenants/?cf_code__re=${encodeURIComponent('[z-a]')}`);
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(Object.keys(res.body), ['cf_code__re']);
  });

  it(PG ? 'should run backreferences on PostgreSQL (its own engine, bounded by the statement timeout)' : 'should refuse backreferences and lookaround on SQLite with a 400 naming the filter', GUARD, async () => {
    for (const pattern of ['(a)\\1', 'a(?=!)', '(?<!b)a']) {
      const res = await t.call('GET', `/api/tenancy/tenants/?name__re=${encodeURIComponent(pattern)}&limit=1`);
      if (PG) {
        assert.equal(res.status, 200, res.raw);
        assert.equal(res.body.count, 50);
      } else {
        assert.equal(res.status, 400, res.raw);
        assert.deepEqual(res.body, { name__re: [UNSUPPORTED] });
      }
    }
  });
});

describe('custom field validation_regex', () => {
  it('should check a value against a catastrophic validation_regex at once', GUARD, async () => {
    await create(t, '/api/extras/custom-fields/', { label: 'Slow', key: 'slow', type: 'text', validation_regex: '^(a+)+$', content_types: ['tenancy.tenant'] });
    const res = await t.call('POST', '/api/tenancy/tenants/', { name: 'cf-evil', custom_fields: { slow: `${'a'.repeat(5000)}!` } });
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, { __all__: ["Invalid value for custom field 'slow': Value must match regex '^(a+)+$'"] });
    const ok = await t.call('POST', '/api/tenancy/tenants/', { name: 'cf-ok', custom_fields: { slow: 'aaaa' } });
    assert.equal(ok.status, 201, ok.raw);
  });

  it('should refuse a validation_regex with lookaround (400 on validation_regex) and create nothing', GUARD, async () => {
    const res = await t.call('POST', '/api/extras/custom-fields/', { label: 'Look', key: 'look', type: 'text', validation_regex: 'a(?=b)', content_types: ['tenancy.tenant'] });
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body, { validation_regex: [`"a(?=b)" is not a valid regular expression. ${UNSUPPORTED}`] });
    assert.equal((await t.call('GET', '/api/extras/custom-fields/?key=look')).body.count, 0);
  });
});

describe('STATEMENT_TIMEOUT_MS (PostgreSQL)', () => {
  it('should answer a statement cancelled by the timeout with a 503 and a clear detail', { ...GUARD, skip: PG ? false : 'PostgreSQL only' }, async () => {
    const limited = await makeApp({ statementTimeoutMs: 300 });
    const locker = new pg.Client({ connectionString: limited.app.services.dialect.source!.url });
    await locker.connect();
    try {
      const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(limited.app.services.dialect.db)).rows[0].s;
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${schema}.tenancy_tenant IN ACCESS EXCLUSIVE MODE`);
      const res = await limited.call('GET', '/api/tenancy/tenants/', undefined, { headers: { 'cache-control': 'no-cache' } });
      assert.equal(res.status, 503, res.raw);
      assert.deepEqual(res.body, { detail: "The database cancelled this request's query after 300 ms (STATEMENT_TIMEOUT_MS). Narrow the filters or the page." });
      await locker.query('ROLLBACK');
      assert.equal((await limited.call('GET', '/api/tenancy/tenants/', undefined, { headers: { 'cache-control': 'no-cache' } })).status, 200);
    } finally {
      await locker.end();
      await limited.close();
    }
  });
});
