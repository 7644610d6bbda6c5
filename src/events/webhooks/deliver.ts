import { createHmac } from 'node:crypto';
import { WebhookUrlError, resolveWebhookUrl } from '../../core/webhook-url.js';
import { renderTemplate } from '../../apps/extras/computed-fields/template-engine.js';
import { PermanentError, declareQueueKind } from '../../queue/index.js';
import { webhookContext } from './context.js';
import { DeliveryRecord } from './record.js';
import { pythonJson } from './python-json.js';
import { sendRequest } from './send.js';
import type { GiveUpContext, HandlerContext } from '../../queue/index.js';
import type { Row } from '../../core/registry/types.js';
import type { WebhookContext } from './context.js';

/** The queue kind of a webhook delivery. */
export const WEBHOOK_KIND = 'webhook';
declareQueueKind(WEBHOOK_KIND);

/** A delivery's payload: which webhook, which change record, and the event's time (kept across attempts). */
export type WebhookDelivery = { webhook: string; change: string; timestamp: string };

/** The reference's `render_headers`: the template rendered, one `Name: value` per line (split at the first colon). */
function renderHeaders(template: string, context: WebhookContext): Record<string, string> {
  if (!template) return {};
  const headers: Record<string, string> = {};
  for (const line of renderTemplate(template, context).split(/\r?\n/)) {
    if (!line.trim()) continue;
    const cut = line.indexOf(':');
    if (cut < 0) throw new PermanentError(`Error parsing HTTP headers: "${line}" is not "Name: value".`);
    headers[line.slice(0, cut).trim()] = line.slice(cut + 1).trim();
  }
  return headers;
}

/** The request the reference's `process_webhook` builds: headers, body (template or Python-style JSON), signature. */
function buildRequest(webhook: Row, context: WebhookContext): { headers: Record<string, string>; body: Buffer } {
  let headers: Record<string, string>;
  let text: string;
  try {
    headers = { 'Content-Type': String(webhook.http_content_type), ...renderHeaders(String(webhook.additional_headers ?? ''), context) };
    text = webhook.body_template ? renderTemplate(String(webhook.body_template), context) : pythonJson(context);
  } catch (err) {
    if (err instanceof PermanentError) throw err;
    throw new PermanentError(`Error rendering the webhook's template: ${(err as Error).message}`);
  }
  const body = Buffer.from(text, 'utf8');
  if (webhook.secret) headers['X-Hook-Signature'] = createHmac('sha512', String(webhook.secret)).update(body).digest('hex');
  return { headers, body };
}

/** One attempt: the URL checked again (DNS included), the request sent pinned to the checked address; a status of 400 or more fails. */
async function attempt(ctx: HandlerContext, webhook: Row, delivery: WebhookDelivery, record: DeliveryRecord): Promise<string> {
  const { services } = ctx;
  let target;
  try {
    target = await resolveWebhookUrl(String(webhook.payload_url), services.config.webhooks);
  } catch (err) {
    if (err instanceof WebhookUrlError) throw new PermanentError(`Payload URL ${webhook.payload_url} blocked: ${err.message}`);
    throw err;
  }
  const context = await webhookContext(services, services.dialect.db, delivery.change, delivery.timestamp);
  if (!context) throw new PermanentError(`Change record ${delivery.change} no longer exists.`);
  const { headers, body } = buildRequest(webhook, context);
  const method = String(webhook.http_method || 'POST');
  await record.log('info', `Attempt ${ctx.attempt} of ${ctx.maxAttempts}: sending ${method} request to ${webhook.payload_url} (${context.model} ${context.event})`);
  const answer = await sendRequest({
    method, url: target.url, address: target.address, family: target.family, headers, body,
    sslVerification: Boolean(webhook.ssl_verification), caFilePath: String(webhook.ca_file_path ?? ''), signal: ctx.signal,
    connectTimeoutMs: services.config.webhooks.connectTimeoutMs, readTimeoutMs: services.config.webhooks.readTimeoutMs,
  });
  if (answer.status >= 400) throw new Error(`Status ${answer.status} returned with content '${answer.body}', webhook FAILED to process.`);
  return `Status ${answer.status} returned, webhook successfully processed.`;
}

/** The queue handler of webhook deliveries: one attempt per run, each recorded (job result, job log, process log). */
export async function deliverWebhook(delivery: WebhookDelivery, ctx: HandlerContext): Promise<string> {
  const { services } = ctx;
  const webhook = await services.store.byId(services.dialect.db, services.registry.get('extras.webhook'), delivery.webhook);
  if (!webhook) throw new PermanentError(`Webhook ${delivery.webhook} no longer exists.`);
  const record = new DeliveryRecord(services, ctx.id, String(webhook.name), { webhook: delivery.webhook, change: delivery.change });
  await record.started(`queue:${ctx.id}`);
  try {
    const outcome = await attempt(ctx, webhook, delivery, record);
    await record.log('success', outcome);
    await record.finished('SUCCESS', outcome);
    return outcome;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const last = err instanceof PermanentError || ctx.attempt >= ctx.maxAttempts || ctx.signal.aborted;
    const stopped = ctx.signal.aborted ? ' (worker stopping: the attempt will be made again)' : '';
    await record.log(last && !ctx.signal.aborted ? 'failure' : 'warning', `Attempt ${ctx.attempt} of ${ctx.maxAttempts} failed: ${message}${stopped}`);
    await record.finished(last && !ctx.signal.aborted ? 'FAILURE' : 'RETRY', message, err instanceof Error ? err.stack ?? null : null);
    throw err;
  }
}

/**
 * The queue gave a delivery up. The handler records its own last failure; this ends a result a
 * dead worker left STARTED (or never created) as FAILURE, with a log line naming the attempts.
 */
export async function failGivenUpDelivery(delivery: WebhookDelivery, ctx: GiveUpContext): Promise<void> {
  const { services } = ctx;
  const webhook = await services.store.byId(services.dialect.db, services.registry.get('extras.webhook'), delivery.webhook);
  const record = new DeliveryRecord(services, ctx.id, String(webhook?.name ?? delivery.webhook), { webhook: delivery.webhook, change: delivery.change });
  const status = await record.status();
  if (status === 'SUCCESS' || status === 'FAILURE') return;
  if (!status) await record.started(`queue:${ctx.id}`);
  const attempts = Math.min(ctx.attempts, ctx.maxAttempts);
  await record.log('failure', `Gave up after ${attempts} of ${ctx.maxAttempts} attempts: ${ctx.reason}`);
  await record.finished('FAILURE', ctx.reason);
}
