import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

/**
 * Prerequisites some tests need from outside the repository: the reference material beside it
 * (`../shared/reference`: wire captures and model catalogue) and a Chromium binary.
 *
 * Present: the tests run. Missing under CI (`CI=true`): a test named after the prerequisite fails,
 * so the run fails. Missing elsewhere: that test is skipped (so the runner's `skipped` total counts
 * it even where a whole `describe` is skipped) and a line on stderr says what was skipped and why.
 */

/** `../shared/reference` beside the repository (CI and development checkouts); REFERENCE_DIR overrides the path. */
export const REFERENCE_DIR = process.env.REFERENCE_DIR ?? fileURLToPath(new URL('../../../shared/reference', import.meta.url));

/** Debian's Chromium (`.ci/run` installs it: apt-get install -y chromium); CHROMIUM overrides the path. */
export const CHROMIUM_PATH = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** True when the run is CI's: a missing prerequisite fails instead of skipping. */
export const UNDER_CI = /^(1|true|yes)$/i.test(process.env.CI ?? '');

const checked = new Map<string, string | false>();

/**
 * Whether `path` (what a prerequisite is) exists: false when it does, else the reason to skip the
 * tests that need it, for their `skip` option. Call it at the top level of a test file; it
 * registers the prerequisite's own test (failing under CI, skipped elsewhere) once per file.
 */
export function prerequisite(what: string, path: string, hint: string): string | false {
  const known = checked.get(path);
  if (known !== undefined) return known;
  const reason = existsSync(path) ? false : `${what} not found at ${path} (${hint})`;
  checked.set(path, reason);
  if (reason && UNDER_CI) {
    it(`prerequisite: ${what}`, () => {
      throw new Error(`${reason}: CI=true requires it, the tests that need it cannot run`);
    });
  } else if (reason) {
    process.stderr.write(`SKIPPED: the tests that need ${reason}\n`);
    it(`prerequisite: ${what}`, { skip: reason }, () => {});
  }
  return reason;
}

/** The reference captures and catalogue (`../shared/reference`). */
export function needReference(): string | false {
  return prerequisite('the reference captures and catalogue', REFERENCE_DIR, 'check out ../shared beside the repository');
}

/** A Chromium binary for the browser tests. */
export function needChromium(): string | false {
  return prerequisite('Chromium', CHROMIUM_PATH, 'apt-get install -y chromium, or set CHROMIUM to its path');
}
