import { createHash } from 'node:crypto';
import { defineModel, f } from '../../../core/registry/define-model.js';
import { generateKey } from '../../../core/passwords.js';
import { permissionActionsList, permissionConstraintsShape, usernameCharacters } from '../rules.js';
import type { SaveContext } from '../../../core/registry/types.js';

/** User: a person or system account that authenticates with a password or tokens. Passwords are hashed by extensions.ts. */
export const user = defineModel({
  app: 'users', model: 'user', verbose_name: 'user', verbose_name_plural: 'users', path: 'users',
  base: 'base',
  fields: {
    password: f.password({ max_length: 128, write_only: true, nullable: true, no_filter: true }),
    last_login: f.datetime({ nullable: true }),
    is_superuser: f.boolean({ default: false, label: 'Superuser status' }),
    username: f.string({ max_length: 150, required: true, unique: true }),
    first_name: f.string({ max_length: 150, default: '' }),
    last_name: f.string({ max_length: 150, default: '' }),
    email: f.email({ max_length: 254, default: '', label: 'Email address' }),
    is_staff: f.boolean({ default: false, label: 'Staff status' }),
    is_active: f.boolean({ default: true, label: 'Active' }),
    date_joined: f.datetime({ default: () => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z') }),
    config_data: f.json({ default: {}, options_type: 'field' }),
    groups: f.m2m('auth.group'),
    default_saved_views: f.m2m('extras.savedview', { read_only: true, label: 'User-specific default saved views', through: { model: 'extras.usersavedviewassociation', owner: 'user', target: 'saved_view' } }),
  },
  natural_key: ['username'],
  ordering: ['username'],
  display: 'username',
  search: ['username', 'first_name', 'last_name', 'email'],
  rules: [usernameCharacters],
});

/** Group: a named set of users that shares object permissions. */
export const group = defineModel({
  app: 'users', model: 'group', object_type: 'auth.group', verbose_name: 'group', verbose_name_plural: 'groups', path: 'groups',
  base: 'base',
  /** Django's auth.group keeps an auto-increment integer key; the API renders it as a number. */
  id_type: 'integer',
  fields: {
    /** Members only: object permissions also name groups through a `groups` field. */
    user_count: f.count('users.user', 'groups'),
    name: f.string({ max_length: 150, required: true, unique: true }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: 'name',
});

function fillToken({ row, before, userId }: SaveContext): void {
  if (!before) {
    row.user_id = userId;
    if (!row.key) row.key = generateKey();
  }
  row.key_digest = createHash('sha256').update(String(row.key)).digest('hex');
}

/** Token: an API key owned by one user, optionally read-only or expiring. */
export const token = defineModel({
  app: 'users', model: 'token', verbose_name: 'token', verbose_name_plural: 'tokens', path: 'tokens',
  base: 'base',
  fields: {
    key: f.string({ max_length: 40, min_length: 40, unique: true }),
    expires: f.datetime({ nullable: true }),
    write_enabled: f.boolean({ default: true }),
    description: f.string({ max_length: 255, default: '' }),
    created: f.datetime({ read_only: true }),
    user: f.fk('users.user', { hidden: true, on_delete: 'CASCADE', nullable: true }),
    key_digest: f.string({ hidden: true, no_filter: true }),
  },
  natural_key: ['pk'],
  ordering: ['created'],
  /** Authentication looks tokens up by digest; `key` is the unique column (its error names the field clients know). */
  indexes: [['key_digest']],
  display: (row, ctx) => `${String(row.key).slice(-6)} (${ctx.display('users.user', row.user_id) ?? ''})`,
  display_needs: ['user'],
  search: ['description'],
  before_save: fillToken,
});

/** Object permission: actions on object types, optionally constrained, granted to users and groups. */
export const objectPermission = defineModel({
  app: 'users', model: 'objectpermission', verbose_name: 'permission', verbose_name_plural: 'permissions', path: 'permissions', class_name: 'ObjectPermission',
  base: 'base',
  features: ['timestamps', 'change_logging'],
  fields: {
    object_types: f.contentTypes({ required: true }),
    name: f.string({ max_length: 255, required: true, unique: true }),
    description: f.string({ max_length: 255, default: '' }),
    enabled: f.boolean({ default: true }),
    actions: f.json({ required: true, options_type: 'field' }),
    constraints: f.json({ nullable: true, options_type: 'field' }),
    groups: f.m2m('auth.group'),
    users: f.m2m('users.user'),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: 'name',
  rules: [permissionActionsList, permissionConstraintsShape],
});
