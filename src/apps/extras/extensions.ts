import { changeSnapshotsTable } from './change-snapshots.js';
import { computedFieldsTable } from './computed-fields/index.js';
import { configContextsTable } from './config-contexts/index.js';
import { contentTypeChecksTable } from './content-type-checks.js';
import { contentTypeFiltersTable } from './content-type-filters.js';
import { contentTypeRefFiltersTable } from './content-type-ref-filters.js';
import { customFieldsTable } from './custom-fields/index.js';
import { metadataScopesTable } from './metadata-scopes.js';
import { relationshipsTable } from './relationships/index.js';
import { systemJobsTable } from './system-jobs.js';
import { gitRepositoryOwnedTable } from './git-repository-owned.js';
import { tagsTable } from './tags.js';
import type { AppExtensions } from '../../ops/extensions.js';

/** Extension tables of the extras app, in the order their hooks run. */
export const extrasExtensions: AppExtensions[] = [changeSnapshotsTable, contentTypeChecksTable, contentTypeFiltersTable, contentTypeRefFiltersTable, customFieldsTable, relationshipsTable, computedFieldsTable, configContextsTable, tagsTable, metadataScopesTable, systemJobsTable, gitRepositoryOwnedTable];
