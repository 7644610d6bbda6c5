import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

/** The value of one sample line (`name{labels} value`) of a Prometheus text body, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    if (wanted.every((w) => (m[2] ?? '').includes(w))) return Number(m[3]);
  }
  return undefined;
}

async function scrape(): Promise<string> {
  const res = await t.call('GET', '/metrics/', undefined, { token: null });
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return res.raw;
}

describe('GET /metrics/', () => {
  it('should count requests by route (the model named) and status, with their latency', async () => {
    await t.call('GET', '/api/dcim/devices/?limit=1');
    await t.call('GET', '/api/dcim/devices/?limit=1');
    await t.call('GET', '/api/dcim/devices/00000000-0000-0000-0000-000000000000/');
    const text = await scrape();
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/api/dcim/devices/', status: '200' }), 2);
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/api/dcim/devices/:key/', status: '404' }), 1);
    assert.equal(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/dcim/devices/', status: '200' }), 2);
    assert.ok(text.includes('http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/dcim/devices/",status="200"}'));
  });

  it('should give the latency histogram cumulative buckets, +Inf and _count equal to the requests, and their sum', async () => {
    for (let i = 0; i < 3; i += 1) await t.call('GET', '/api/dcim/racks/?limit=1');
    const text = await scrape();
    const labels = { method: 'GET', route: '/api/dcim/racks/', status: '200' };
    const buckets = ['0.001', '0.01', '0.1', '1', '30', '+Inf'].map((le) => sample(text, 'http_request_duration_seconds_bucket', { le, ...labels }));
    assert.ok(buckets.every((b) => b !== undefined), text);
    for (let i = 1; i < buckets.length; i += 1) assert.ok(buckets[i]! >= buckets[i - 1]!, `bucket ${i} below the one before`);
    assert.equal(buckets.at(-1), 3);
    assert.equal(sample(text, 'http_request_duration_seconds_count', labels), 3);
    const sum = sample(text, 'http_request_duration_seconds_sum', labels)!;
    assert.ok(sum > 0 && sum < 30, `sum ${sum}`);
    assert.equal(sample(text, 'http_requests_total', labels), 3);
  });

  it('should keep unknown paths to one label', async () => {
    await t.call('GET', '/no/such/path/a');
    await t.call('GET', '/no/such/path/b');
    assert.equal(sample(await scrape(), 'http_requests_total', { route: '(unmatched)', status: '404' }), 2);
  });

  it('should report response cache lookups and the hit ratio', async () => {
    const lookups = (text: string) => ['hit', 'miss'].map((result) => sample(text, 'netsot_response_cache_lookups_total', { result }) ?? 0);
    const [hits0, misses0] = lookups(await scrape());
    await t.call('GET', '/api/tenancy/tenants/?limit=3');
    await t.call('GET', '/api/tenancy/tenants/?limit=3');
    const text = await scrape();
    const [hits, misses] = lookups(text);
    assert.equal(hits + misses, hits0 + misses0 + 2);
    // On PostgreSQL a write anywhere in the cluster (other test files) moves the snapshot the cache
    // is keyed by, so the second GET may miss there; on SQLite it is a hit.
    if (t.app.services.dialect.name === 'sqlite') assert.equal(hits, hits0 + 1);
    const ratio = sample(text, 'netsot_response_cache_hit_ratio')!;
    assert.ok(Math.abs(ratio - hits / (hits + misses)) < 1e-9, String(ratio));
  });

  it('should report database statements, the pool on PostgreSQL, and process figures', async () => {
    const text = await scrape();
    assert.ok(sample(text, 'netsot_db_statements_total')! > 0);
    if (t.app.services.dialect.name === 'postgres') {
      assert.equal(sample(text, 'netsot_db_pool_max_connections'), 10);
      assert.ok(sample(text, 'netsot_db_pool_connections', { state: 'open' })! >= 1);
    } else assert.equal(sample(text, 'netsot_db_pool_connections'), undefined);
    assert.equal(sample(text, 'netsot_queue_items', { state: 'queued' }), 0);
    assert.ok(sample(text, 'process_cpu_user_seconds_total') !== undefined);
    assert.ok(sample(text, 'nodejs_eventloop_lag_seconds') !== undefined);
  });
});

describe('GET /metrics/ settings', () => {
  it('should ask for a token with METRICS_AUTHENTICATED', async () => {
    const locked = await makeApp({ metrics: { enabled: true, authenticated: true } });
    try {
      assert.equal((await locked.call('GET', '/metrics/', undefined, { token: null })).status, 403);
      assert.equal((await locked.call('GET', '/metrics/', undefined, { token: 'f'.repeat(40) })).status, 403);
      assert.equal((await locked.call('GET', '/metrics/')).status, 200);
    } finally {
      await locked.close();
    }
  });

  it('should not serve metrics with METRICS_ENABLED=false', async () => {
    const off = await makeApp({ metrics: { enabled: false, authenticated: false } });
    try {
      assert.equal((await off.call('GET', '/metrics/', undefined, { token: null })).status, 404);
    } finally {
      await off.close();
    }
  });
});
