import { ValidationError } from '../../core/errors.js';
import { imageSize } from '../../core/media/image-size.js';
import { imageFields } from '../../core/registry/image-fields.js';
import { removeUploads, storeUpload } from '../../ops/media/store-upload.js';
import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';

/** The reference's messages for a bad file in an image field (DRF FileField/ImageField). */
const NOT_A_FILE = 'The submitted data was not a file. Check the encoding type on the form.';
const EMPTY_FILE = 'The submitted file is empty.';
const NOT_AN_IMAGE = 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

/** A model form body: each image field's file stored, every other field as its text (typed later by the write's own validation). */
export type UploadBody = { body: Record<string, unknown>; stored: string[] };

/** Why an image field's form value is refused, or undefined when it is an acceptable image (or '' to clear the field). */
function imageProblem(value: FormDataEntryValue, data: Uint8Array | undefined): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : NOT_A_FILE;
  if (!data || data.length === 0) return EMPTY_FILE;
  return imageSize(data) ? undefined : NOT_AN_IMAGE;
}

/** An image field's form value: the stored file's path, or '' (no file). */
async function imageValue(mediaRoot: string, field: ResolvedField, value: FormDataEntryValue, stored: string[]): Promise<string | { error: string }> {
  const data = typeof value === 'string' ? undefined : new Uint8Array(await value.arrayBuffer());
  const problem = imageProblem(value, data);
  if (problem) return { error: problem };
  if (typeof value === 'string') return '';
  const path = await storeUpload(mediaRoot, field.upload_to ?? field.name, (value as File).name, data!);
  stored.push(path);
  return path;
}

/** A form value of another field: its text (a file sent there counts by its name); a repeated name gives a list. */
function plainValue(values: FormDataEntryValue[]): unknown {
  const texts = values.map((v) => (typeof v === 'string' ? v : v.name));
  return texts.length === 1 ? texts[0] : texts;
}

/**
 * A multipart/form-data write to a model with image fields, as the JSON body it stands for:
 * the image files are checked (PNG, JPEG or GIF) and stored under the media folder, their
 * fields set to the stored paths. A bad file is a 400 naming its field; nothing stays stored.
 */
export async function multipartModelBody(mediaRoot: string, model: ResolvedModel, form: FormData): Promise<UploadBody> {
  const images = new Map(imageFields(model).map((f) => [f.name, f]));
  const body: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  const stored: string[] = [];
  for (const key of new Set(form.keys())) {
    const field = images.get(key);
    if (!field) {
      body[key] = plainValue(form.getAll(key));
      continue;
    }
    const value = await imageValue(mediaRoot, field, form.getAll(key).at(-1)!, stored);
    if (typeof value === 'string') body[key] = value;
    else errors[key] = [value.error];
  }
  if (Object.keys(errors).length > 0) {
    await removeUploads(mediaRoot, stored);
    throw new ValidationError(errors);
  }
  return { body, stored };
}
