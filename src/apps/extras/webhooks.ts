import { WebhookUrlError, checkWebhookUrlFormat } from '../../core/webhook-url.js';
import type { RuleContext } from '../../core/registry/types.js';

/**
 * The reference's Webhook.clean(): its checks in order, the first failing one reported (as Django's
 * clean() raises); then, once clean() passed, the serializer's check_for_conflicts.
 */
export async function webhookIsValid(ctx: RuleContext): Promise<Record<string, string | string[]> | void> {
  return someActionChosen(ctx) ?? caFileNeedsVerification(ctx) ?? payloadUrlPermitted(ctx) ?? (await noConflictingWebhook(ctx));
}

const ACTIONS = [['type_create', 'create'], ['type_update', 'update'], ['type_delete', 'delete']] as const;

/**
 * The reference's Webhook.check_for_conflicts: no other webhook with the same payload URL on one
 * of the same content types with an action in common; one message per content type and action.
 */
async function noConflictingWebhook(ctx: RuleContext): Promise<Record<string, string[]> | void> {
  const { row } = ctx;
  const url = String(row.payload_url ?? '');
  const others = (await ctx.find(ctx.model.id, { payload_url: url })).filter((other) => String(other.id) !== String(row.id));
  if (others.length === 0) return;
  const linked = await ctx.linksOf(ctx.model.id, 'content_types', others.map((other) => String(other.id)));
  const conflicts: Record<string, string[]> = {};
  for (const label of await ctx.links('content_types')) {
    const sharing = others.filter((other) => linked.get(String(other.id))?.includes(label));
    for (const [flag, action] of ACTIONS) {
      if (!row[flag] || !sharing.some((other) => other[flag])) continue;
      (conflicts[flag] ??= []).push(`A webhook already exists for ${action} on ${await contentTypeName(ctx, label)} to URL ${url}`);
    }
  }
  return Object.keys(conflicts).length > 0 ? conflicts : undefined;
}

/** Django's str(ContentType): '<app_label> | <model verbose name>'. */
async function contentTypeName(ctx: RuleContext, label: string): Promise<string> {
  const [appLabel, model] = label.split('.');
  const [type] = await ctx.find('contenttypes.contenttype', { app_label: appLabel, model });
  return type?.model_verbose_name ? `${appLabel} | ${String(type.model_verbose_name)}` : model;
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
