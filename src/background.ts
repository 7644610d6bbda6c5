import { registerEventKinds } from './events/index.js';
import { OutboxPublisher, publishedListeners } from './events/publisher.js';
import { QueueRunner } from './queue/index.js';
import { takeQueued } from './queue/queued-flag.js';
import { registerJobKinds } from './jobs/queue-kinds.js';
import type { OutboxSubscriber } from './events/publisher.js';
import type { Services } from './ops/services.js';

/** What runs off the request path in one process: a queue runner and the outbox publisher. */
/**
 * `stop(graceMs)`: the runner claims nothing more and lets running items finish for up to
 * `graceMs` (0: they are aborted and released at once); later calls wait for the first.
 */
export type Background = { runner: QueueRunner; publisher: OutboxPublisher; stop(graceMs?: number): Promise<void> };

const started = new WeakMap<Services, Background>();

/** The background started over `services` in this process, if any (the server stops it gracefully on SIGTERM). */
export function backgroundOf(services: Services): Background | undefined {
  return started.get(services);
}

/**
 * Every queue kind and outbox subscriber of the platform, registered on a runner: the service's
 * embedded one and `inventory worker` processes run the same set. Add a part's kinds here.
 */
function registerKinds(runner: QueueRunner, services: Services): OutboxSubscriber[] {
  const subscribers: OutboxSubscriber[] = [...registerEventKinds(runner, services), ...registerJobKinds(runner, services)];
  return subscribers;
}

/** Starts a runner and the publisher over `services`: the publisher woken after each commit of this process, the runner when it queued rows. */
export async function startBackground(services: Services): Promise<Background> {
  const { queue } = services.config;
  const runner = new QueueRunner(services, { concurrency: queue.concurrency, pollMs: queue.pollMs, leaseMs: queue.leaseMs });
  const publisher = new OutboxPublisher(services, registerKinds(runner, services), queue.pollMs);
  // The runner looks for work only when this process queued some (queued-flag.ts); other
  // processes' rows wake it by NOTIFY (PostgreSQL) or its poll.
  const wakeRunner = () => {
    if (takeQueued(services.dialect)) runner.wake();
  };
  // After the current turn of the event loop: the write that committed renders and sends its
  // response first, and publication and delivery (1000 webhook payloads for a bulk create) follow.
  const wake = () => {
    setImmediate(() => {
      publisher.wake();
      wakeRunner();
    });
  };
  services.committed.add(wake);
  // A publication may have queued deliveries.
  publishedListeners(services).add(wakeRunner);
  await runner.start();
  await publisher.start();
  let stopping: Promise<void> | null = null;
  const background: Background = {
    runner,
    publisher,
    stop(graceMs = 0) {
      stopping ??= (async () => {
        services.committed.delete(wake);
        publishedListeners(services).delete(wakeRunner);
        await publisher.stop();
        await runner.stop(graceMs);
        started.delete(services);
      })();
      return stopping;
    },
  };
  started.set(services, background);
  return background;
}
