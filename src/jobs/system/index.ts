import { BulkDeleteObjects, BulkEditObjects } from './bulk-actions.js';
import { LogsCleanup } from './cleanup.js';
import { RefreshDynamicGroupCacheJobButtonReceiver, RefreshDynamicGroupCaches } from './groups.js';
import { ExportObjectList, ImportObjects } from './import-export.js';
import { GitRepositoryDryRun, GitRepositorySync } from './git.js';
import { FixIPAMParents } from './ipam-parents.js';
import type { JobDefinition } from '../contract.js';
import type { FoundJob } from '../catalog.js';
import type { SystemJob } from './types.js';

function system(moduleName: string, jobs: Record<string, SystemJob>): FoundJob[] {
  return Object.entries(jobs).map(([name, definition]) => ({ module_name: moduleName, job_class_name: name, definition: definition as JobDefinition }));
}

/** Jobs built into the service, under the reference's module and class names (`nautobot.core.jobs...`). */
export const SYSTEM_JOBS: FoundJob[] = [
  ...system('nautobot.core.jobs.bulk_actions', { BulkDeleteObjects, BulkEditObjects }),
  ...system('nautobot.core.jobs', { ExportObjectList, GitRepositorySync, GitRepositoryDryRun, ImportObjects }),
  ...system('nautobot.core.jobs.cleanup', { LogsCleanup }),
  ...system('nautobot.core.jobs.groups', { RefreshDynamicGroupCaches, RefreshDynamicGroupCacheJobButtonReceiver }),
  ...system('nautobot.ipam.jobs.cleanup', { FixIPAMParents }),
];
