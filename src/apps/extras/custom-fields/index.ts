import { customFieldDynamicFilter, listCustomFieldFilters } from './filters.js';
import { customFieldExtensions } from './lifecycle.js';
import { parseCustomFieldInput, renderCustomFields } from './object-data.js';
import type { AppExtensions } from '../../../ops/extensions.js';

/**
 * Custom fields on every model with the feature (`*`): values checked on write, every key
 * rendered on read, `cf_<key>` filters; plus the lifecycle of fields and their choices.
 */
export const customFieldsTable: AppExtensions = {
  '*': { parseInput: parseCustomFieldInput, computed: { custom_fields: renderCustomFields }, dynamicFilter: customFieldDynamicFilter, listDynamicFilters: listCustomFieldFilters },
  ...customFieldExtensions,
};
