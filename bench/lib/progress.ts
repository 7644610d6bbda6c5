/**
 * One progress bar on stderr when it is a terminal; otherwise one line per finished phase.
 * `total` may be an estimate (some counts depend on the data): the bar stops at 100 % and
 * `finish` ends it at the count actually done. `seconds` gives the time spent per phase name:
 * the time from one tick to the next goes to the phase of the later tick (the batch it reports).
 */
export type Progress = { tick(phase: string, done: number): void; finish(): void; seconds(): Record<string, number> };

export function makeProgress(total: number, opts: { quiet?: boolean } = {}): Progress {
  const tty = process.stderr.isTTY && !opts.quiet;
  const started = Date.now();
  let done = 0;
  let phase = '';
  let phaseDone = 0;
  let lastTick = performance.now();
  const spent: Record<string, number> = {};
  const draw = () => {
    const frac = total > 0 ? Math.min(1, done / total) : 1;
    const width = 30;
    const bar = '#'.repeat(Math.round(frac * width)).padEnd(width, '.');
    const rate = done / Math.max(0.001, (Date.now() - started) / 1000);
    process.stderr.write(`\r[${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${total} ${rate.toFixed(0)}/s ${phase.padEnd(20)}`);
  };
  const endPhase = () => {
    if (phase && !tty && !opts.quiet) process.stderr.write(`  seeded ${phase}: ${phaseDone} (${Math.round((Date.now() - started) / 1000)} s in)\n`);
  };
  return {
    tick(name, n) {
      const now = performance.now();
      spent[name] = (spent[name] ?? 0) + (now - lastTick) / 1000;
      lastTick = now;
      if (name !== phase) {
        endPhase();
        phase = name;
        phaseDone = 0;
      }
      done += n;
      phaseDone += n;
      if (tty) draw();
    },
    finish() {
      total = done;
      if (tty) {
        draw();
        process.stderr.write('\n');
      } else endPhase();
    },
    seconds: () => Object.fromEntries(Object.entries(spent).map(([k, v]) => [k, Math.round(v * 10) / 10])),
  };
}
