import fs from 'node:fs';

/** Resident and peak resident memory of a process, in MB, from /proc/<pid>/status (Linux). */
export function readMemory(pid: number): { rssMb: number; hwmMb: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Threads of a process now (Linux; NaN elsewhere): job threads and the SQLite checkpoint thread count one each. */
export function threadCount(pid: number): number {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).length;
  } catch {
    return NaN;
  }
}

/**
 * Where a process's resident memory is, in MB (/proc/<pid>/smaps_rollup, Linux): file-backed
 * pages (the binary, shared libraries, mapped files) and anonymous ones (JavaScript heaps, the
 * C allocator's arenas, thread stacks, SQLite's page cache). Null where not readable.
 */
export function readMappings(pid: number): { fileMb: number; anonMb: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    return { fileMb: (kb('Rss') - kb('Anonymous')) / 1024, anonMb: kb('Anonymous') / 1024 };
  } catch {
    return null;
  }
}

/**
 * Run time of a process's main thread so far, in ms (Linux schedstat; NaN elsewhere): CPU spent
 * serving, unlike wall time untouched by other work on the machine.
 */
export function mainThreadMs(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Resets the kernel's peak-RSS mark (VmHWM) of a process we own; false where not allowed. */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Peak RSS over a phase: the kernel's VmHWM after a reset when possible, else the highest of
 * samples taken every `intervalMs`.
 */
export function watchMemory(pid: number, intervalMs = 50): { stop(): { startMb: number; peakMb: number } } {
  const exact = resetPeak(pid);
  const startMb = readMemory(pid)?.rssMb ?? NaN;
  let sampled = startMb;
  const timer = setInterval(() => {
    const m = readMemory(pid);
    if (m && m.rssMb > sampled) sampled = m.rssMb;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const m = readMemory(pid);
      const peakMb = exact && m ? Math.max(m.hwmMb, sampled) : Math.max(sampled, m?.rssMb ?? 0);
      return { startMb, peakMb };
    },
  };
}
