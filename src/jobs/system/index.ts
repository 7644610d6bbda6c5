import type { FoundJob } from '../catalog.js';

/** Jobs built into the service, under the reference's module and class names. */
export const SYSTEM_JOBS: FoundJob[] = [];
