import type { AppExtensions, WriteHookContext } from '../../../ops/extensions.js';

/**
 * A rack reservation created or replaced (POST, PUT, CSV import) without `user` belongs to the
 * requesting user, as the reference's serializer fills the key in before validation; a PATCH
 * without it keeps the stored user, and a given `user` is taken as given (null is refused).
 */
async function fillReservationUser(ctx: WriteHookContext): Promise<void> {
  const actor = ctx.rc.actor;
  const column = ctx.model.fieldMap.get('user')?.column;
  if (ctx.partial || !actor || actor.anonymous || !column) return;
  for (const plan of ctx.plans) {
    if (!Object.prototype.hasOwnProperty.call(plan.input, 'user')) plan.row[column] = actor.id;
  }
}

export const rackReservationExtensions: AppExtensions = {
  'dcim.rackreservation': { parseInput: fillReservationUser },
};
