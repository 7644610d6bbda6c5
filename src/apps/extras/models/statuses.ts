import { defineModel, f } from '../../../core/registry/define-model.js';

/** Status: a lifecycle state assignable to objects of the models in its content types. */
export const status = defineModel({
  app: 'extras', model: 'status', verbose_name: 'status', verbose_name_plural: 'statuses', path: 'statuses',
  base: 'organizational',
  features: ['dynamic_groups', 'contacts', 'metadata', 'export_templates', 'graphql', 'webhooks', 'custom_links', 'custom_validators'],
  fields: {
    content_types: f.contentTypes({ required: true, content_type_feature: 'status' }),
    name: f.string({ max_length: 255, required: true, unique: true }),
    color: f.color({ options_type: 'string' }),
    description: f.string({ max_length: 255, default: '' }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: 'name',
  search: ['name', 'content_types__model'],
});

/** Role: a functional role assignable to objects of the models in its content types. */
export const role = defineModel({
  app: 'extras', model: 'role', verbose_name: 'role', verbose_name_plural: 'roles', path: 'roles',
  base: 'organizational',
  features: ['dynamic_groups', 'contacts', 'metadata', 'export_templates', 'graphql', 'webhooks', 'custom_links', 'custom_validators'],
  fields: {
    content_types: f.contentTypes({ required: true, content_type_feature: 'role' }),
    name: f.string({ max_length: 255, required: true, unique: true }),
    color: f.color({ options_type: 'string' }),
    description: f.string({ max_length: 255, default: '' }),
    weight: f.positiveInteger({ nullable: true }),
  },
  natural_key: ['name'],
  ordering: ['weight', 'name'],
  display: 'name',
  search: ['name', 'content_types__model'],
});

/** Tag: a label applicable to objects of the models in its content types. */
export const tag = defineModel({
  app: 'extras', model: 'tag', verbose_name: 'tag', verbose_name_plural: 'tags', path: 'tags',
  base: 'organizational',
  features: ['dynamic_groups', 'contacts', 'metadata', 'custom_validators'],
  fields: {
    tagged_items: f.count('*', 'tags'),
    content_types: f.contentTypes({ required: true, content_type_feature: 'tags' }),
    name: f.string({ max_length: 255, required: true, unique: true }),
    color: f.color({ options_type: 'string' }),
    description: f.string({ max_length: 255, default: '' }),
  },
  natural_key: ['name'],
  ordering: ['name'],
  display: 'name',
  search: ['name', 'content_types__model'],
});
