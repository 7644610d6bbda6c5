import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { buildWhere } from '../../../src/ops/filters/apply.js';
import { buildOrder } from '../../../src/db/query/sort.js';
import { countStatements, create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

const ADDRESSES = 100_000;
const IP = '/api/ipam/ip-addresses/';

let t: TestApp;

/** 100 000 addresses 10.0.0.1 ... 10.1.134.160 under 10.0.0.0/8, written straight to the table. */
async function seedAddresses(): Promise<void> {
  const { services } = t.app;
  const parent = await create(t, '/api/ipam/prefixes/', { prefix: '10.0.0.0/8', status: 'Active' });
  const model = services.registry.get('ipam.ipaddress');
  const now = new Date().toISOString();
  const rows = Array.from({ length: ADDRESSES }, (_, n) => {
    const i = n + 1;
    return {
      id: randomUUID(), host: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, mask_length: 16, ip_version: 4, type: 'host',
      namespace_id: parent.namespace.id, parent_id: parent.id, status_id: parent.status.id, role_id: null, tenant_id: null,
      nat_inside_id: null, vrf_id: null, dns_name: '', description: '', _custom_field_data: {}, created: now, last_updated: now,
    };
  });
  await services.store.insert(services.dialect.db, model, rows as never);
  // PostgreSQL's autovacuum analyzes a table this size on its own; do it now rather than wait.
  // (SQLite is left without statistics, as the service never runs ANALYZE there.)
  if (services.dialect.name === 'postgres') await sql`ANALYZE`.execute(services.dialect.db);
}

/** The list query the API runs for `query` (same filter set and default order), with LIMIT 50. */
async function listQuery(query: string, modelId = 'ipam.ipaddress') {
  const { services } = t.app;
  const model = services.registry.get(modelId);
  const params = new Map([...new URLSearchParams(query)].map(([k, v]) => [k, [v]]));
  const where = await buildWhere({ services, exec: services.dialect.db, model }, params);
  let select = services.dialect.db.selectFrom(model.table).selectAll(model.table).where(where);
  for (const term of buildOrder(services.registry, model, undefined)) select = select.orderBy(term.expr, term.desc ? 'desc' : 'asc');
  return select.limit(50);
}

/**
 * The planner's plan for the query (EXPLAIN on either database) and whether it reads an index
 * with a range condition on `host` (SQLite: `USING INDEX ix_… (… host>? AND host<?)`;
 * PostgreSQL: an index scan whose Index Cond bounds host).
 */
async function hostRangeScan(query: string): Promise<{ ok: boolean; plan: string }> {
  const { dialect } = t.app.services;
  const compiled = (await listQuery(query)).compile();
  const explain = (prefix: string) => dialect.db.executeQuery(CompiledQuery.raw(`${prefix} ${compiled.sql}`, [...compiled.parameters]));
  if (dialect.name === 'sqlite') {
    const rows = (await explain('EXPLAIN QUERY PLAN')).rows as { detail: string }[];
    const plan = rows.map((r) => r.detail).join('\n');
    return { ok: /USING (COVERING )?INDEX \w*host\w* \([^)]*host>\? AND host<\?\)/.test(plan), plan };
  }
  const rows = (await explain('EXPLAIN (FORMAT JSON)')).rows as { 'QUERY PLAN': unknown }[];
  const plan = JSON.stringify(rows[0]['QUERY PLAN']);
  return { ok: /"Index Name":"\w*host\w*"/.test(plan) && /"Index Cond":"[^"]*\(host >= [^"]*host <= /.test(plan), plan };
}

before(async () => {
  t = await makeApp();
  await seedAddresses();
});
after(() => t.close());

describe(`net_host_contained over ${ADDRESSES} addresses`, () => {
  it('should be planned as an index range scan on host', async () => {
    for (const query of ['address__net_host_contained=10.1.0.0/24', 'host__net_host_contained=10.0.128.0/17', 'prefix=10.1.2.0/23']) {
      const { ok, plan } = await hostRangeScan(query);
      console.log(`# ${t.app.services.dialect.name} ${query}: ${plan.replace(/\s+/g, ' ').slice(0, 400)}`);
      assert.ok(ok, `${query}: ${plan}`);
    }
  });

  it('should answer a page of a large net_host_contained set, counted and in order', async () => {
    // Speed is the bench's to measure (npm run bench); here only the answer.
    const res = await t.call('GET', `${IP}?address__net_host_contained=10.1.0.0/20&limit=50`);
    assert.equal(res.body.count, 4096);
    assert.equal(res.body.results[0].address, '10.1.0.0/16');
  });

  it('should cost a fixed number of statements per page whatever its size', async () => {
    const count = (limit: number, depth: number) => countStatements(t, `${IP}?address__net_host_contained=10.0.0.0/16&limit=${limit}&depth=${depth}`);
    for (const depth of [0, 1, 2]) {
      const [small, large] = [await count(5, depth), await count(1000, depth)];
      assert.ok(large <= small, `depth ${depth}: limit=5 took ${small}, limit=1000 took ${large}`);
    }
  });
});

describe('prefix containment filters', () => {
  it('should bound the network column on both sides (an index range, not every prefix above the first)', async () => {
    const { dialect } = t.app.services;
    for (const query of ['prefix__net_contained=10.0.0.0/16', 'prefix__net_contained_or_equal=10.0.0.0/16']) {
      const compiled = (await listQuery(query, 'ipam.prefix')).compile();
      // PostgreSQL plans a table of one prefix with a sequential scan whatever the bounds: there the statement names both.
      if (dialect.name !== 'sqlite') {
        assert.match(compiled.sql, /"network" >=? \$\d+ and [^]*"network" <=? \$\d+/i, `${query}: ${compiled.sql}`);
        continue;
      }
      const rows = (await dialect.db.executeQuery(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]))).rows as { detail: string }[];
      const plan = rows.map((r) => r.detail).join('\n');
      assert.match(plan, /network>\? AND network<\?/, `${query}: ${plan}`);
    }
  });
});
