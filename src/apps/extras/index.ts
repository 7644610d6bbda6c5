import { extrasGeneratedModels } from './generated.js';
import { note, objectChange } from './models/changes.js';
import { role, status, tag } from './models/statuses.js';
import type { AppDefinition } from '../../core/registry/registry.js';

/** Extras: statuses, roles, tags, notes and the change log. */
export const extrasApp: AppDefinition = { label: 'extras', models: [status, role, tag, note, objectChange, ...extrasGeneratedModels], searchable_models: ['contact', 'dynamicgroup', 'externalintegration', 'gitrepository', 'team'] };
