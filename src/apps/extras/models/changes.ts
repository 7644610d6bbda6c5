import { defineModel, f } from '../../../core/registry/define-model.js';
import { ObjectChangeActionChoices, ObjectChangeEventContextChoices } from '../choices.js';

/** Object change: one create, update or delete of an object, recorded by the service. */
export const objectChange = defineModel({
  app: 'extras', model: 'objectchange', verbose_name: 'object change', verbose_name_plural: 'object changes', path: 'object-changes',
  base: 'base',
  features: ['graphql', 'metadata'],
  read_only: true,
  description: 'Retrieve a list of recent changes.',
  fields: {
    time: f.datetime({ read_only: true }),
    user: f.fk('users.user', { read_only: true, nullable: true, on_delete: 'SET_NULL' }),
    user_name: f.string({ read_only: true }),
    request_id: f.uuid({ read_only: true }),
    action: f.choice(ObjectChangeActionChoices, { read_only: true }),
    changed_object_type: f.contentType({ read_only: true }),
    changed_object_id: f.uuid({ read_only: true }),
    changed_object: f.genericFk(),
    // Not in the reference's filter set (ObjectChangeFilterSet): these four answer "Unknown filter field".
    change_context: f.choice(ObjectChangeEventContextChoices, { read_only: true, render_as: 'value', no_filter: true }),
    change_context_detail: f.string({ max_length: 400, read_only: true, no_filter: true }),
    related_object_type: f.contentType({ read_only: true, nullable: true, no_filter: true }),
    related_object_id: f.uuid({ read_only: true, nullable: true, no_filter: true }),
    object_repr: f.string({ max_length: 200, read_only: true }),
    // Written once, read whole, never filtered on: kept as JSON text (no jsonb conversion on write).
    object_data: f.jsonDocument({ read_only: true, no_filter: true }),
    object_data_v2: f.jsonDocument({ read_only: true, nullable: true, no_filter: true }),
    // Where object_data_v2's related objects are kept apart (db/schema/snapshot-parts.ts): null when none are.
    object_data_v2_parts: f.jsonDocument({ read_only: true, nullable: true, no_filter: true, hidden: true }),
  },
  natural_key: ['pk'],
  ordering: ['-time'],
  display: (row, ctx) => `${ctx.contentType(row.changed_object_type)} ${row.object_repr} ${({ create: 'created', update: 'updated', delete: 'deleted' } as Record<string, string>)[String(row.action)] ?? row.action} by ${row.user_name}`,
  search: ['user_name', 'object_repr'],
});

/** Note: a dated Markdown comment attached to any object. */
export const note = defineModel({
  app: 'extras', model: 'note', verbose_name: 'note', verbose_name_plural: 'notes', path: 'notes',
  base: 'base',
  features: ['change_logging', 'graphql', 'webhooks'],
  fields: {
    assigned_object_type: f.contentType({ required: true }),
    assigned_object: f.genericFk(),
    assigned_object_id: f.uuid({ required: true }),
    user_name: f.string({ read_only: true }),
    note: f.text({ required: true }),
    user: f.fk('users.user', { nullable: true, on_delete: 'SET_NULL' }),
    created: f.datetime({ read_only: true, nullable: true }),
    last_updated: f.datetime({ read_only: true, nullable: true }),
  },
  natural_key: ['assigned_object_type', 'assigned_object_id', 'user_name', 'created'],
  ordering: ['created'],
  display: (row, ctx) => `${ctx.display(String(row.assigned_object_type), row.assigned_object_id) ?? 'Unknown'} - ${String(row.created ?? '').replace('T', ' ').replace(/Z$/, '+00:00')}`,
  display_needs: ['assigned_object'],
  search: ['user_name', 'note', { path: 'assigned_object_id', lookup: 'exact', term: 'uuid' }],
  before_save: ({ row, before, userId, username }) => {
    if (!before) {
      row.user_id = userId;
      row.user_name = username ?? 'Undefined';
    }
  },
});
