import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Registry } from 'prom-client';

const REQUEST = 'netsot:metrics-request';
const RESPONSE = 'netsot:metrics-response';
const TIMEOUT_MS = 10_000;

type Message = { type?: string; id?: number; text?: string; error?: string };

/**
 * Primary process of a `WORKERS>1` cluster: answers a worker's request for the whole cluster's
 * metrics with prom-client's aggregation over every worker (counters and histograms summed).
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Message) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: RESPONSE, id: message.id, text }),
      (err: Error) => worker.send({ type: RESPONSE, id: message.id, error: err.message }),
    );
  });
}

let serial = 0;

/** Worker: offers its registries to the primary's aggregation (prom-client answers its requests). */
export function shareWorkerMetrics(registries: Registry[]): void {
  AggregatorRegistry.setRegistries(registries);
  new AggregatorRegistry();
}

/** Worker: the metrics of every worker, in Prometheus text, asked of the primary. */
export function clusterMetricsText(): Promise<string> {
  const id = ++serial;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('The primary process did not answer for the cluster metrics.')), TIMEOUT_MS);
    function onMessage(message: Message): void {
      if (message?.type !== RESPONSE || message.id !== id) return;
      finish(message.error ? new Error(message.error) : undefined, message.text ?? '');
    }
    function finish(err?: Error, text = ''): void {
      clearTimeout(timer);
      process.off('message', onMessage);
      if (err) reject(err);
      else resolve(text);
    }
    process.on('message', onMessage);
    process.send?.({ type: REQUEST, id });
  });
}

/** True in a worker of a `WORKERS>1` cluster, whose metrics are only part of the service's. */
export function inClusterWorker(): boolean {
  return cluster.isWorker;
}
