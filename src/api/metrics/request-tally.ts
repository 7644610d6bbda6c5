import type { Registry } from 'prom-client';

/** One label set's requests: how many, their summed latency, and how many fell in each bucket (not cumulative). */
type Tally = { labels: Record<string, string>; count: number; sum: number; buckets: number[] };

/** A histogram value as prom-client's `get()` gives it (the registry formats these). */
type Sample = { labels: Record<string, string | number>; value: number; metricName: string };

/**
 * Requests by label set and their latency histogram, counted on the request path by one map
 * look-up keyed by the label values (prom-client's `inc`/`observe` validate and hash the label
 * object on every call, a few per cent of a detail GET). The registry reads the tallies when
 * scraped: `countValues` for a counter's `collect`, `histogram` as a metric of its own, shaped as
 * prom-client's Histogram (buckets cumulative, `+Inf`, `_sum`, `_count`; summed across workers).
 */
export class RequestTally {
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly labelNames: readonly string[], private readonly bounds: readonly number[]) {}

  /** Counts one request with these label values (in `labelNames` order) and its latency. */
  observe(values: readonly string[], seconds: number): void {
    const key = values.join('\u0000');
    let tally = this.tallies.get(key);
    if (!tally) this.tallies.set(key, (tally = { labels: Object.fromEntries(this.labelNames.map((n, i) => [n, values[i]])), count: 0, sum: 0, buckets: this.bounds.map(() => 0) }));
    tally.count += 1;
    tally.sum += seconds;
    const bucket = this.bounds.findIndex((b) => seconds <= b);
    if (bucket >= 0) tally.buckets[bucket] += 1;
  }

  /** Each label set and its request count. */
  counts(): { labels: Record<string, string>; count: number }[] {
    return [...this.tallies.values()];
  }

  /** Registers the latency histogram `name` in `registry`. */
  registerHistogram(registry: Registry, name: string, help: string): void {
    const metric = { name, help, type: 'histogram', aggregator: 'sum', get: async () => ({ name, help, type: 'histogram', aggregator: 'sum', values: this.histogramValues(name) }), reset: () => this.tallies.clear() };
    registry.registerMetric(metric as never);
  }

  private histogramValues(name: string): Sample[] {
    const out: Sample[] = [];
    for (const t of this.tallies.values()) {
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += t.buckets[i];
        out.push({ labels: { le, ...t.labels }, value: acc, metricName: `${name}_bucket` });
      });
      out.push({ labels: { le: '+Inf', ...t.labels }, value: t.count, metricName: `${name}_bucket` }, { labels: { ...t.labels }, value: t.sum, metricName: `${name}_sum` }, { labels: { ...t.labels }, value: t.count, metricName: `${name}_count` });
    }
    return out;
  }
}
