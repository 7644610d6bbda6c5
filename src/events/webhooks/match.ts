import { enqueueMany } from '../../queue/index.js';
import { pythonTimestamp } from './python-json.js';
import { WEBHOOK_KIND } from './deliver.js';
import type { OutboxSubscriber, PublishedChange } from '../publisher.js';
import type { WebhookDelivery } from './deliver.js';
import type { Row } from '../../core/registry/types.js';
import type { Exec } from '../../db/store.js';
import type { Services } from '../../ops/services.js';

const ACTION_FLAGS: Record<string, string> = { create: 'type_create', update: 'type_update', delete: 'type_delete' };

/** Enabled webhooks with the model ids (`app_label.model`) they apply to (two statements). */
async function enabledWebhooks(services: Services, exec: Exec): Promise<{ webhook: Row; types: Set<string> }[]> {
  const model = services.registry.get('extras.webhook');
  const webhooks = await services.store.where(exec, model, { enabled: true });
  if (webhooks.length === 0) return [];
  const links = await services.store.links(exec, model, model.fieldMap.get('content_types')!, webhooks.map((w) => w.id as string));
  return webhooks.map((webhook) => ({ webhook, types: new Set((links.get(webhook.id as string) ?? []).map(String)) }));
}

/**
 * The outbox subscriber of webhooks (the reference's `enqueue_webhooks`): each published change
 * is matched against the enabled webhooks by content type and action, and one delivery per match
 * is queued in the publishing transaction. Deliveries of one webhook for one object run in
 * order (their group), each retried with backoff (WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_BACKOFF_MS).
 */
export function webhookSubscriber(services: Services): OutboxSubscriber {
  return async (changes: PublishedChange[], exec: Exec) => {
    const webhooks = await enabledWebhooks(services, exec);
    if (webhooks.length === 0) return;
    const timestamp = pythonTimestamp(new Date());
    const items: { kind: string; payload: WebhookDelivery; groupKey: string }[] = [];
    for (const change of changes) {
      for (const { webhook, types } of webhooks) {
        if (!webhook[ACTION_FLAGS[change.action]] || !types.has(String(change.objectType))) continue;
        const payload: WebhookDelivery = { webhook: webhook.id as string, change: change.changeId, timestamp };
        items.push({ kind: WEBHOOK_KIND, payload, groupKey: `webhook:${webhook.id}:${change.objectType}:${change.objectId}` });
      }
    }
    const { maxAttempts, retryBackoffMs } = services.config.webhooks;
    await enqueueMany(services, items, { exec, maxAttempts, backoffMs: retryBackoffMs });
  };
}
