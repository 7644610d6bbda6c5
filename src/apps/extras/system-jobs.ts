import { ConflictError } from '../../core/errors.js';
import type { AppExtensions } from '../../ops/extensions.js';

/**
 * System jobs (module `nautobot.*`) cannot be deleted: the reference's JobViewSet raises a
 * ProtectedError with no dependent objects, answered as a 409 (single and bulk delete alike).
 */
export const systemJobsTable: AppExtensions = {
  'extras.job': {
    async beforeDelete({ rows }) {
      if (rows.some((row) => String(row.module_name).startsWith('nautobot.'))) throw new ConflictError('Unable to delete object. 0 dependent objects were found: ');
    },
  },
};
