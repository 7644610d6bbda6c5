import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { imageSize } from '../../core/media/image-size.js';
import { checkedMediaPath } from '../../core/media/paths.js';
import { imageFields } from '../../core/registry/image-fields.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';

/** The pixel size of a stored image file, or null when it is missing or no image. */
async function storedImageSize(mediaRoot: string, relative: string) {
  const path = checkedMediaPath(relative);
  if (!path) return null;
  try {
    return imageSize(await readFile(join(mediaRoot, path)));
  } catch {
    return null;
  }
}

/**
 * Fills the height and width columns of the image fields that declare them (`image_size`) from
 * the stored file, when the field's file changed, as the reference's ImageField does on save.
 */
export async function fillImageSizes(mediaRoot: string, model: ResolvedModel, row: Row, before: Row | undefined): Promise<void> {
  for (const field of imageFields(model)) {
    const column = field.column as string;
    if (!field.image_size || !row[column] || (before && before[column] === row[column])) continue;
    const size = await storedImageSize(mediaRoot, String(row[column]));
    if (!size) continue;
    row[model.fieldMap.get(field.image_size.height)!.column as string] = size.height;
    row[model.fieldMap.get(field.image_size.width)!.column as string] = size.width;
  }
}
