import type { AppExtensions, WriteHookContext } from '../../ops/extensions.js';

/**
 * Content types named by these fields must be among the field's choices (registry
 * `contentTypeChoices`: a `content_type_feature` such as custom_fields or relationships, or a
 * fixed `content_type_models` list), as the reference limits them; anything else is
 * `Invalid content type: <value>`.
 */
async function checkFeatureContentTypes(ctx: WriteHookContext): Promise<void> {
  for (const field of ctx.model.fields) {
    if (!field.content_type_feature && !field.content_type_models) continue;
    if (field.kind !== 'content_type' && field.kind !== 'content_types') continue;
    const allowed = new Set(ctx.services.registry.contentTypeChoices(field).map((m) => m.id));
    for (const plan of ctx.plans) {
      if (plan.errors[field.name]) continue;
      const given = field.kind === 'content_types' ? plan.links.get(field.name) ?? [] : [plan.row[field.column as string]].filter((v) => v !== null && v !== undefined);
      const bad = given.find((v) => !allowed.has(String(v)));
      if (bad !== undefined) plan.errors[field.name] = [`Invalid content type: ${String(bad)}`];
    }
  }
}

/** Models whose content-type fields are limited (OPTIONS lists the same choices). */
const LIMITED = [
  'extras.customfield', 'extras.computedfield', 'extras.relationship', 'extras.relationshipassociation',
  'extras.imageattachment', 'extras.configcontext', 'extras.configcontextschema', 'extras.exporttemplate', 'extras.graphqlquery',
];

/** Applies to the extras models whose content types are limited by a feature or a list. */
export const contentTypeChecksTable: AppExtensions = Object.fromEntries(LIMITED.map((id) => [id, { parseInput: checkFeatureContentTypes }]));
