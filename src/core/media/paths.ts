import { posix } from 'node:path';

/** Where stored files are served (the reference's MEDIA_URL). */
export const MEDIA_URL = '/media/';

/** The absolute URL of a stored file (`relative`: its path under the media folder). */
export function mediaUrl(baseUrl: string, relative: string): string {
  return `${baseUrl}${MEDIA_URL}${relative.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * An uploaded file's name made safe to store: its last path segment only, spaces as
 * underscores, and nothing but letters, digits, `-`, `_` and `.` (as Django's get_valid_filename);
 * never empty, `.` or `..`.
 */
export function safeFileName(name: string): string {
  const base = posix.basename(name.replaceAll('\\', '/')).trim().replaceAll(' ', '_').replace(/[^\p{L}\p{N}_.-]/gu, '');
  return base === '' || /^\.+$/.test(base) ? 'upload' : base.slice(-90);
}

/** A relative media path, or null when it would leave the media folder (`..`, absolute, empty segments). */
export function checkedMediaPath(relative: string): string | null {
  const segments = relative.split('/');
  return segments.every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('\\') && !s.includes('\0')) ? segments.join('/') : null;
}
