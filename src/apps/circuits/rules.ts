import type { Rule, Row } from '../../core/registry/types.js';

/**
 * What a circuit termination attaches to, in the reference's order and wording. `cloud_network`
 * is checked once the model declares it (the cloud app): the rule reads only the fields the
 * model has, and the messages are the reference's, which name the cloud network already.
 */
const ATTACHMENTS = [
  { field: 'location', noun: 'a location' },
  { field: 'provider_network', noun: 'a provider network' },
  { field: 'cloud_network', noun: 'a cloud network' },
];

/** A circuit termination attaches to exactly one of a location, a provider network or a cloud network. */
export const circuitTerminationAttachment: Rule = ({ row, model }) => {
  const declared = ATTACHMENTS.filter((a) => model.fieldMap.get(a.field)?.column);
  const set = declared.filter((a) => (row as Row)[model.fieldMap.get(a.field)!.column as string] != null);
  if (set.length === 0) return { __all__: 'A circuit termination must attach to a location, a provider network or a cloud network.' };
  if (set.length > 1) return { __all__: `A circuit termination cannot attach to both ${set[0].noun} and ${set[1].noun}.` };
};
