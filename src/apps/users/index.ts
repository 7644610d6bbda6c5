import { group, objectPermission, token, user } from './models/users.js';
import type { AppDefinition } from '../../core/registry/registry.js';

/** Users: accounts, groups, API tokens and object permissions. */
export const usersApp: AppDefinition = { label: 'users', models: [user, group, token, objectPermission], root_paths: ['config'] };
