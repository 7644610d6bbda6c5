import { WEBHOOK_KIND, deliverWebhook, failGivenUpDelivery } from './webhooks/deliver.js';
import { webhookSubscriber } from './webhooks/match.js';
import type { OutboxSubscriber } from './publisher.js';
import type { QueueRunner } from '../queue/index.js';
import type { Services } from '../ops/services.js';

/** Registers the events' queue kinds on `runner`; returns their outbox subscribers. */
export function registerEventKinds(runner: QueueRunner, services: Services): OutboxSubscriber[] {
  runner.handle(WEBHOOK_KIND, deliverWebhook, { onGiveUp: failGivenUpDelivery });
  return [webhookSubscriber(services)];
}
