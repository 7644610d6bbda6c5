import type { DisplayFn } from '../../core/registry/types.js';

/** Features of the cloud and wireless apps' assignment models (no change log, tags or notes). */
export const ASSIGNMENT_FEATURES = ['graphql', 'export_templates', 'custom_links'];

/**
 * The declaration parts an assignment model shares (an object of one model linked to one of
 * another, once): both FKs are its natural key, its one unique set and its order, and its
 * display reads both related objects.
 */
export function assignmentKeys(first: string, second: string) {
  return { natural_key: [first, second], unique_together: [[first, second]], ordering: [first, second], display_needs: [first, second] };
}

/** `<first>: <second>`, each related object by its display (`first`/`second`: FK name and its model id). */
export function assignmentDisplay(first: [fk: string, model: string], second: [fk: string, model: string]): DisplayFn {
  return (row, ctx) => `${ctx.display(first[1], row[`${first[0]}_id`]) ?? ''}: ${ctx.display(second[1], row[`${second[0]}_id`]) ?? ''}`;
}
