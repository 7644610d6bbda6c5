/**
 * Ad-hoc: statements per extra object of bulk create, PATCH and DELETE for every model of the
 * contract fixtures (10 objects, then 100), on a fresh in-memory database per model (or
 * DATABASE_URL). A per-object statement shows as a cost near 1 or more.
 *
 *   node --import tsx bench/write-scaling.ts [model-substring]
 */
import { makeApp } from '../test/helpers/app.js';
import { FIXTURES } from '../test/contract/fixtures.js';
import type { Fixture } from '../test/contract/fixtures.js';
import type { TestApp } from '../test/helpers/app.js';

async function count(t: TestApp, method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown): Promise<{ n: number; body: any; status: number }> {
  const before = t.app.services.dialect.queryCount();
  const res = await t.call(method, path, body);
  return { n: t.app.services.dialect.queryCount() - before, body: res.body, status: res.status };
}

async function measure(fx: Fixture): Promise<string> {
  const t = await makeApp({ maxPageSize: 1000 });
  try {
    const ctx = (await fx.setup?.(t)) ?? {};
    const out: string[] = [];
    const made: Record<number, any[]> = {};
    const costs: Record<string, number[]> = { create: [], patch: [], delete: [] };
    for (const [size, from] of [[10, 1000], [100, 2000]] as const) {
      const res = await count(t, 'POST', fx.path, Array.from({ length: size }, (_, i) => fx.make(from + i, ctx)));
      if (res.status !== 201) return `${fx.model.padEnd(34)} create ${size} -> ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`;
      made[size] = res.body;
      costs.create.push(res.n);
      const value = (o: any) => (fx.edit ? fx.edit('bulk', ctx) : `bulk ${o.id.slice(0, 4)}`);
      const patch = await count(t, 'PATCH', fx.path, res.body.map((o: any) => ({ id: o.id, [fx.text]: value(o) })));
      costs.patch.push(patch.status === 200 ? patch.n : NaN);
    }
    for (const size of [10, 100]) costs.delete.push((await count(t, 'DELETE', fx.path, made[size].map((o) => ({ id: o.id })))).n);
    for (const [op, [a, b]] of Object.entries(costs)) out.push(`${op} ${String(a).padStart(4)}/${String(b).padEnd(4)} ${((b - a) / 90).toFixed(2).padStart(5)}`);
    return `${fx.model.padEnd(34)} ${out.join('   ')}`;
  } catch (err) {
    return `${fx.model.padEnd(34)} error ${(err as Error).message.slice(0, 120)}`;
  } finally {
    await t.close();
  }
}

const filter = process.argv[2] ?? '';
for (const fx of FIXTURES.filter((f) => f.model.includes(filter))) console.log(await measure(fx));
