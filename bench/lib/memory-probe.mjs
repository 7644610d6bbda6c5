/**
 * A probe for bench/memory-phases.ts (`PROBE=bench/lib/memory-probe.mjs`): loaded into the
 * service with `--import`, it answers SIGUSR2 by appending one JSON line to PROBE_OUT
 * (default bench/.data/memory-probe.jsonl) with where the process's memory is: the kernel's
 * RssAnon / RssFile / RssShmem, the V8 heap (process.memoryUsage() and each space, used/committed
 * MB), and resident MB per kind of mapping from /proc/self/smaps: `[heap]` (the main C allocator
 * arena), `[anon]` (V8's pages, thread arenas and stacks), `file` (the binary and libraries),
 * `database` (mapped database files: SQLite's -shm, and the database itself if mmap_size is set).
 * The tag comes from the file PROBE_CMD names (`{"tag", "gc"}`), written by memory-phases.
 */
import fs from 'node:fs';
import v8 from 'node:v8';

const out = process.env.PROBE_OUT ?? 'bench/.data/memory-probe.jsonl';
const mb = (bytes) => Math.round(bytes / 1048576);

function mappings() {
  const kinds = {};
  let kind = null;
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1];
      kind = !name ? '[anon]' : !name.startsWith('/') ? name : /\.sqlite3|-shm$|-wal$/.test(name) ? 'database' : 'file';
      continue;
    }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss && kind) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return Object.fromEntries(Object.entries(kinds).filter(([, v]) => v >= 1).map(([k, v]) => [k, Math.round(v)]));
}

function status() {
  const text = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (key) => Math.round(Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1]) / 1024);
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
}

process.on('SIGUSR2', () => {
  let cmd = { tag: '?' };
  try { cmd = JSON.parse(fs.readFileSync(process.env.PROBE_CMD ?? '', 'utf8')); } catch { /* untagged */ }
  if (cmd.gc && typeof globalThis.gc === 'function') globalThis.gc();
  const usage = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().filter((s) => s.space_size > 0)
    .map((s) => [s.space_name.replace(/_space$/, ''), `${mb(s.space_used_size)}/${mb(s.space_size)}`]));
  const line = { tag: cmd.tag, ...status(), heapTotal: mb(usage.heapTotal), heapUsed: mb(usage.heapUsed), external: mb(usage.external), arrayBuffers: mb(usage.arrayBuffers), spaces, mappings: mappings() };
  fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
});
