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

/** The targets as a Markdown table. */
export function targetTable(r: Results): string[] {
  const mark = (m: boolean | null) => (m === null ? '-' : m ? 'met' : '**missed**');
  return ['| target (issue 7) | this run | |', '|---|---|---|', ...targetRows(r).map((t) => `| ${t.target} | ${t.measured} | ${mark(t.met)} |`)];
}
