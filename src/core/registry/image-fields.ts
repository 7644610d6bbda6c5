import type { ResolvedField, ResolvedModel } from './types.js';

/** Whether `field` is an image field (declared `options_type: 'image upload'`). */
export function isImageField(field: ResolvedField): boolean {
  return field.options_type === 'image upload';
}

const cache = new WeakMap<ResolvedModel, ResolvedField[]>();

/** The image fields of `model`, in field order (none for most models). */
export function imageFields(model: ResolvedModel): ResolvedField[] {
  let fields = cache.get(model);
  if (!fields) {
    fields = model.fields.filter(isImageField);
    cache.set(model, fields);
  }
  return fields;
}
