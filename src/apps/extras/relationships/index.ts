import { renderRelationships } from './block.js';
import { listRelationshipFilters, relationshipDynamicFilter } from './filters.js';
import { dropAssociations, parseRelationshipInput, saveRelationships } from './hooks.js';
import { peerIdFilter, relationshipModelExtensions } from './model-checks.js';
import type { AppExtensions } from '../../../ops/extensions.js';

/**
 * Relationships on every model with the feature (`*`): the opt-in `relationships` block, the
 * `relationships` write key, `cr_` filters and cleanup on delete; plus checks of relationships
 * and associations written directly.
 */
export const relationshipsTable: AppExtensions = {
  '*': {
    computed: { relationships: renderRelationships },
    dynamicFilter: relationshipDynamicFilter,
    listDynamicFilters: listRelationshipFilters,
    parseInput: parseRelationshipInput,
    afterWrite: saveRelationships,
    afterDelete: dropAssociations,
  },
  ...relationshipModelExtensions,
  'extras.relationshipassociation': { ...relationshipModelExtensions['extras.relationshipassociation'], filters: { peer_id: peerIdFilter } },
};
