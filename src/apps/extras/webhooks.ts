import { WebhookUrlError, checkWebhookUrlFormat } from '../../core/webhook-url.js';
import type { RuleContext } from '../../core/registry/types.js';

/** The reference's Webhook.clean(): its checks in order, the first failing one reported (as Django's clean() raises). */
export function webhookIsValid(ctx: RuleContext): Record<string, string> | void {
  return someActionChosen(ctx) ?? caFileNeedsVerification(ctx) ?? payloadUrlPermitted(ctx);
}

/** At least one action. */
function someActionChosen({ row }: RuleContext): Record<string, string> | void {
  if (!row.type_create && !row.type_update && !row.type_delete) return { non_field_errors: 'You must select at least one type: create, update, and/or delete.' };
}

/** A CA file only with verification on. */
function caFileNeedsVerification({ row }: RuleContext): Record<string, string> | void {
  if (!row.ssl_verification && row.ca_file_path) return { ca_file_path: 'Do not specify a CA certificate file if SSL verification is disabled.' };
}

/** The URL policy at save (core/webhook-url.ts; WEBHOOK_ALLOWED_HOSTS and friends). */
function payloadUrlPermitted({ row, config }: RuleContext): Record<string, string> | void {
  try {
    checkWebhookUrlFormat(String(row.payload_url ?? ''), config.webhooks);
  } catch (err) {
    if (err instanceof WebhookUrlError) return { payload_url: err.message };
    throw err;
  }
}
