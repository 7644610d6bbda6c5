/**
 * The registry's mirrored to-many fields kept in step: a field declared `through` an
 * assignment model follows its assignments (through-links.ts); one declared `reverse_of`
 * another and that other hold the same pairs (reverse-links.ts). Fields listing assignments
 * filter by the assigned objects, as the reference's filter sets.
 */
import { derivedFilters } from './derived-filters.js';
import { mirrorThrough } from './through-links.js';
import { mirrorReverse } from './reverse-links.js';
import type { AppDefinition } from '../../core/registry/registry.js';
import type { AuthoredField } from '../../core/registry/types.js';
import type { AppExtensions } from '../../ops/extensions.js';
import type { ThroughLink } from './through-links.js';

/** Every declared field of the apps' models, with its model id. */
function fieldsOf(apps: AppDefinition[]): { modelId: string; name: string; field: AuthoredField }[] {
  return apps.flatMap((app) => app.models.flatMap((m) => Object.entries(m.fields).map(([name, field]) => ({ modelId: `${m.app}.${m.model}`, name, field: field as AuthoredField }))));
}

function throughExtensions(apps: AppDefinition[]): AppExtensions {
  const byAssignment = new Map<string, ThroughLink[]>();
  for (const { modelId, name, field } of fieldsOf(apps)) {
    if (!field.through) continue;
    const link: ThroughLink = { owner: modelId, field: name, ownerFk: field.through.owner, targetFk: field.through.target };
    byAssignment.set(field.through.model, [...(byAssignment.get(field.through.model) ?? []), link]);
  }
  return Object.fromEntries([...byAssignment].map(([assignment, links]) => [assignment, mirrorThrough(assignment, links)]));
}

function reverseExtensions(apps: AppDefinition[]): AppExtensions[] {
  return fieldsOf(apps).filter(({ field }) => field.reverse_of).map(({ modelId, name, field }) => {
    const cut = (field.reverse_of as string).lastIndexOf('.');
    return mirrorReverse({ model: (field.reverse_of as string).slice(0, cut), field: (field.reverse_of as string).slice(cut + 1) }, { model: modelId, field: name });
  });
}

export function mirroredFieldExtensions(apps: AppDefinition[]): AppExtensions[] {
  return [
    throughExtensions(apps),
    ...reverseExtensions(apps),
    derivedFilters({
      'extras.secretsgroup': ['secrets=secrets_group_associations.secret'],
      'dcim.interfaceredundancygroup': ['interfaces=interface_redundancy_group_associations.interface'],
    }),
  ];
}
