import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

/** One object a repository's files ask for: `key` names it among the repository's objects of its model. */
export type OwnedItem = { key: string; input: Record<string, unknown> };

/** What one kind of content read from a working copy: its items, and the files that could not be used (with why). */
export type ContentRead = { items: OwnedItem[]; errors: string[] };

/** The plain files of a folder, sorted (none when the folder is missing). */
export function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().filter((name) => statSync(path.join(dir, name)).isFile());
}

/** The sub-folders of a folder, sorted. */
export function foldersIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().filter((name) => !name.startsWith('.') && statSync(path.join(dir, name)).isDirectory());
}

/** A data file read as YAML (JSON is YAML), as the reference reads every data file. */
export function readDataFile(file: string): unknown {
  return YAML.parse(readFileSync(file, 'utf8'));
}

/** A file's one or many records (a dict or a list of dicts), each checked to hold `_metadata.name`. */
export function recordsOf(data: unknown): Record<string, unknown>[] {
  const list = Array.isArray(data) ? data : [data];
  if (!data || typeof data !== 'object') throw new Error('data must be a dict or a list of dicts');
  return list.map((entry) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new Error('each item in list data must be a dict');
    const record = entry as Record<string, unknown>;
    const meta = record._metadata as Record<string, unknown> | undefined;
    if (!meta || typeof meta !== 'object') throw new Error('data is missing the required `_metadata` key.');
    if (!meta.name) throw new Error('data `_metadata` is missing the required `name` key.');
    return record;
  });
}

/** Reads every file of a folder with `read`, gathering the items and, per broken file, one error naming it. */
export function readEach(files: { file: string; shown: string }[], read: (file: string) => OwnedItem[], describe: (shown: string, message: string) => string): ContentRead {
  const out: ContentRead = { items: [], errors: [] };
  for (const { file, shown } of files) {
    try {
      out.items.push(...read(file));
    } catch (err) {
      out.errors.push(describe(shown, err instanceof Error ? err.message : String(err)));
    }
  }
  return out;
}
