import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mixedRequests } from '../../bench/lib/mixed.js';
import type { Fixtures } from '../../bench/lib/fixtures.js';
import type { ReadScenario } from '../../bench/lib/scenarios.js';

const fx = { locationIds: ['loc-a', 'loc-b'] } as unknown as Fixtures;
const reads: ReadScenario[] = [
  { name: 'list', paths: ['/api/dcim/locations/?limit=50'], list: true },
  { name: 'list, uncached', paths: ['/api/dcim/locations/?limit=50'], list: true, headers: { 'cache-control': 'no-cache' } },
  { name: 'detail', paths: ['/api/dcim/locations/1/', '/api/dcim/locations/2/'], list: false },
  { name: 'graphql', paths: ['/api/graphql/'], list: true, post: '{}' },
];

test('the mixed load sends one write in ten, alternating PATCH and POST, and the GET scenarios in turn', () => {
  const next = mixedRequests(reads, fx, { authorization: 'Token x' }, 'run1');
  const sent = Array.from({ length: 40 }, () => next());
  const writes = sent.filter((r) => r.method !== 'GET');
  assert.equal(writes.length, 4);
  assert.deepEqual(writes.map((w) => w.method), ['PATCH', 'POST', 'PATCH', 'POST']);
  assert.match(writes[0].path, /^\/api\/dcim\/locations\/loc-[ab]\/$/);
  assert.equal(writes[1].path, '/api/tenancy/tenants/');
  assert.equal(JSON.parse(writes[1].body as string).name, 'bench-mixed-run1-2');
  assert.equal(writes[0].headers['content-type'], 'application/json');
  const gets = sent.filter((r) => r.method === 'GET').map((r) => r.path);
  // The uncached duplicate and the POST-only scenario are left out; the detail GET takes its paths in turn.
  assert.deepEqual([...new Set(gets)].sort(), ['/api/dcim/locations/1/', '/api/dcim/locations/2/', '/api/dcim/locations/?limit=50']);
  assert.equal(sent.find((r) => r.method === 'GET')?.headers['cache-control'], undefined);
});
