import type { ReadRow, Results } from './report.js';

/** One issue-7 target: what it asks, what this run measured, whether it is met (null: not measured). */
export type TargetRow = { target: string; measured: string; met: boolean | null };

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

function read(r: Results, name: string): ReadRow | undefined {
  return r.reads.find((x) => x.name === name);
}

function rateTarget(r: Results, name: string, label: string, min: number, maxFloorRatio?: number): TargetRow {
  const row = read(r, name);
  if (!row) return { target: label, measured: 'not measured', met: null };
  const ratio = row.floorRatio === null ? '' : `, ${row.floorRatio.toFixed(1)}× floor`;
  const withinFloor = maxFloorRatio === undefined || (row.floorRatio !== null && row.floorRatio <= maxFloorRatio);
  return { target: label, measured: `${fmt(row.rps)} req/s${ratio}`, met: row.rps >= min && withinFloor };
}

/** Issue 19: the GraphQL query for 50 devices costs at most twice the CPU of the REST depth-2 page of those devices. */
function graphqlTarget(r: Results): TargetRow {
  const label = 'GraphQL, 50 devices with interfaces, IPs, location, platform, tags: CPU <= 2× the REST depth-2 page (issue 19)';
  const gql = r.reads.find((x) => x.name.startsWith('GraphQL: 50 devices'));
  const rest = read(r, 'devices list, limit 50, depth 2, uncached');
  if (!gql?.cpuMs || !rest?.cpuMs) return { target: label, measured: 'not measured', met: null };
  const ratio = gql.cpuMs / rest.cpuMs;
  return { target: label, measured: `${gql.cpuMs.toFixed(1)} vs ${rest.cpuMs.toFixed(1)} CPU ms/req (${ratio.toFixed(2)}×)`, met: ratio <= 2 };
}

/** The targets issue 7 compares the table against (reported, never asserted). */
export function targetRows(r: Results): TargetRow[] {
  const rows: TargetRow[] = [
    rateTarget(r, 'locations list, limit 50, depth 0', 'list 50 at depth 0: >= 1 000 req/s and within 5× of the floor', 1000, 5),
    rateTarget(r, 'locations list, limit 50, depth 0, uncached', 'same, every request rendered afresh (Cache-Control: no-cache)', 1000, 5),
    rateTarget(r, 'locations list, limit 50, depth 1', 'list 50 at depth 1: >= 500 req/s', 500),
    rateTarget(r, 'locations list, limit 50, depth 1, uncached', 'same, rendered afresh', 500),
    rateTarget(r, 'location detail GET', 'detail GET: >= 3 000 req/s', 3000),
    rateTarget(r, 'location detail GET, uncached', 'same, rendered afresh', 3000),
  ];
  const creates = r.bulk.filter((b) => b.name.startsWith('bulk create'));
  for (const b of creates) rows.push({ target: `${b.name}: >= 5 000 objects/s with the change log`, measured: `${fmt(b.objectsPerSecond)} objects/s`, met: b.objectsPerSecond >= 5000 });
  const biggest = [...r.csv].sort((a, b) => b.rows - a.rows)[0];
  rows.push(biggest
    ? { target: 'CSV export in constant memory: RSS growth < 50 MB', measured: `${fmt(biggest.rows)} rows (${biggest.path}): ${biggest.growthMb.toFixed(1)} MB${biggest.complete ? '' : biggest.error ? ', failed' : ', cut off'}`, met: biggest.complete && biggest.growthMb < 50 }
    : { target: 'CSV export in constant memory: RSS growth < 50 MB', measured: 'not measured', met: null });
  rows.push(graphqlTarget(r));
  rows.push({ target: 'whole run under 10 minutes (medium data set)', measured: `${fmt(r.totalSeconds)} s${r.dataset.seeded ? ' including seeding' : ''}`, met: r.totalSeconds < 600 });
  return rows;
}

/** Issue 22: a list page rendered afresh within `max`× of the floor. */
function floorTarget(r: Results, name: string, max: number): TargetRow {
  const row = read(r, name);
  const label = `${name.replace(/, uncached$/, '')}, rendered afresh: within ${max}× of the floor`;
  if (!row || row.floorRatio === null) return { target: label, measured: 'not measured', met: null };
  return { target: label, measured: `${fmt(row.rps)} req/s, ${row.floorRatio.toFixed(1)}× floor${row.cpuMs ? `, ${row.cpuMs.toFixed(1)} CPU ms/req` : ''}`, met: row.floorRatio <= max };
}

/** Issue 22's targets (every request rendered afresh; PostgreSQL's are looser where the issue says so). */
export function freshTargetRows(r: Results): TargetRow[] {
  const pg = r.db === 'postgres';
  const rows: TargetRow[] = [floorTarget(r, 'locations list, limit 50, depth 0, uncached', pg ? 7 : 5)];
  for (const model of ['locations', 'interfaces', 'devices', 'racks', 'virtual machines', 'cables']) rows.push(floorTarget(r, `${model} list, limit 50, depth 1, uncached`, pg ? 15 : 10));
  const detailMin = pg ? 3000 : 6000;
  rows.push(rateTarget(r, 'location detail GET, uncached', `detail GET rendered afresh: >= ${fmt(detailMin)} req/s`, detailMin));
  const createMin = pg ? 8000 : 10000;
  const create = r.bulk.find((b) => b.name.startsWith('bulk create') && b.name.endsWith('locations'));
  rows.push(create
    ? { target: `${create.name} with the change log: >= ${fmt(createMin)} objects/s`, measured: `${fmt(create.objectsPerSecond)} objects/s`, met: create.objectsPerSecond >= createMin }
    : { target: `bulk create 1000 locations with the change log: >= ${fmt(createMin)} objects/s`, measured: 'not measured', met: null });
  const m = r.mixed;
  const mixedLabel = pg ? 'mixed load (90% reads, 10% writes): reported' : 'mixed load (90% reads, 10% writes): >= 1 000 req/s, p99 < 50 ms, zero errors';
  const failures = m ? m.errors + m.non2xx + m.timeouts : 0;
  rows.push(m
    ? { target: mixedLabel, measured: `${fmt(m.rps)} req/s, p99 ${m.p99.toFixed(0)} ms, ${failures} errors`, met: pg ? null : m.rps >= 1000 && m.p99 < 50 && failures === 0 }
    : { target: mixedLabel, measured: 'not measured', met: null });
  const steady = r.server.endRssMb ?? NaN;
  rows.push({ target: 'API process RSS: <= 200 MB steady after the bench, <= 350 MB peak', measured: `${fmt(steady)} MB after, ${fmt(r.server.peakRssMb)} MB peak`, met: Number.isFinite(steady) ? steady <= 200 && r.server.peakRssMb <= 350 : null });
  return rows;
}

const mark = (m: boolean | null) => (m === null ? '-' : m ? 'met' : '**missed**');

/** The targets as Markdown tables: issue 22's (fresh renders) first, then issue 7's. */
export function targetTable(r: Results): string[] {
  return [
    '| target (issue 22: every request rendered afresh) | this run | |', '|---|---|---|', ...freshTargetRows(r).map((t) => `| ${t.target} | ${t.measured} | ${mark(t.met)} |`),
    '',
    '| target (issue 7) | this run | |', '|---|---|---|', ...targetRows(r).map((t) => `| ${t.target} | ${t.measured} | ${mark(t.met)} |`),
  ];
}
