import type { JobDefinition } from '../../src/jobs/contract.js';

/** Keeps one CPU busy for `seconds` (the bench's "detail GET while a CPU-bound job runs"). */
export const BenchSpin: JobDefinition = {
  meta: { name: 'Bench: CPU-bound spin', grouping: 'Bench', has_sensitive_variables: false, time_limit: 600 },
  variables: { seconds: { type: 'IntegerVar', min_value: 1, max_value: 550 } },
  run(ctx, data) {
    const end = Date.now() + Number(data.seconds) * 1000;
    let spins = 0;
    while (Date.now() < end && !ctx.signal.aborted) spins += 1;
    return { spins };
  },
};
