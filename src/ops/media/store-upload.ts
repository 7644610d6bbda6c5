import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeFileName } from '../../core/media/paths.js';

/** Longest stored path the reference's image columns hold (Django FileField max_length). */
const MAX_PATH = 100;

/** `name` cut so that `<folder>/<name>` fits MAX_PATH, the extension kept (as Django's get_available_name truncates). */
function fitName(folder: string, name: string, suffix: string): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const room = MAX_PATH - folder.length - 1 - ext.length - suffix.length;
  return `${stem.slice(0, Math.max(1, room))}${suffix}${ext}`;
}

/**
 * Stores an uploaded file under `<mediaRoot>/<folder>/` with a safe name (never outside the folder)
 * and never over another file: a taken name gets a random suffix, as Django's storage adds one.
 * Returns the stored path relative to the media root.
 */
export async function storeUpload(mediaRoot: string, folder: string, fileName: string, data: Uint8Array): Promise<string> {
  await mkdir(join(mediaRoot, folder), { recursive: true });
  const safe = safeFileName(fileName);
  for (let attempt = 0; ; attempt++) {
    const relative = `${folder}/${fitName(folder, safe, attempt === 0 ? '' : `_${randomBytes(4).toString('hex').slice(0, 7)}`)}`;
    try {
      await writeFile(join(mediaRoot, relative), data, { flag: 'wx' });
      return relative;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 20) throw err;
    }
  }
}

/** Removes stored uploads (those of a write that failed); missing files are ignored. */
export async function removeUploads(mediaRoot: string, relatives: string[]): Promise<void> {
  await Promise.all(relatives.map((relative) => unlink(join(mediaRoot, relative)).catch(() => undefined)));
}
