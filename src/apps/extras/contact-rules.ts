import type { Rule } from '../../core/registry/types.js';

/** A contact association names a contact or a team, not both (the reference's clean()). */
export const contactOrTeam: Rule = ({ row }) => {
  if (!row.contact_id && !row.team_id) return { __all__: 'Either a contact or a team must be specified' };
  if (row.contact_id && row.team_id) return { __all__: 'A contact and a team cannot be both specified at once' };
};
