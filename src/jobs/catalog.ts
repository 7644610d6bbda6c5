import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { VARIABLE_TYPES } from './variables.js';
import type { JobDefinition } from './contract.js';

/** One job found in code: where it lives and what it declares. */
export type FoundJob = {
  module_name: string;
  job_class_name: string;
  definition: JobDefinition;
  /** The file it was imported from (absent for jobs built into the service). */
  file?: string;
};

/** A module that could not be loaded, with the reason (logged; its jobs become `installed: false`). */
export type BrokenModule = { module_name: string; file: string; error: string };

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/** Whether a module export is a job definition (an object with a `run` function). */
export function isJobDefinition(value: unknown): value is JobDefinition {
  return !!value && typeof value === 'object' && typeof (value as { run?: unknown }).run === 'function';
}

/** Why a definition cannot be registered, or null. */
function definitionError(name: string, def: JobDefinition): string | null {
  for (const [varName, spec] of Object.entries(def.variables ?? {})) {
    if (!spec || !VARIABLE_TYPES.has(spec.type)) return `${name}: variable "${varName}" has unknown type ${JSON.stringify(spec?.type)}`;
    if ((spec.type === 'ObjectVar' || spec.type === 'MultiObjectVar') && typeof spec.model !== 'string') return `${name}: variable "${varName}" needs a model`;
    if ((spec.type === 'ChoiceVar' || spec.type === 'MultiChoiceVar') && !Array.isArray(spec.choices)) return `${name}: variable "${varName}" needs choices`;
  }
  return null;
}

/** Job module files below `root` (recursive), skipping `_`/`.`-prefixed names, declarations and tests. */
export function listModuleFiles(root: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort()) {
    if (entry.startsWith('_') || entry.startsWith('.') || entry === 'node_modules') continue;
    const full = path.join(root, entry);
    const stat = statSync(full);
    if (stat.isDirectory()) out.push(...listModuleFiles(full));
    else if (EXTENSIONS.includes(path.extname(entry)) && !/\.(d|test|spec)\.[mc]?[jt]s$/.test(entry) && path.basename(entry, path.extname(entry)).indexOf('.') < 0) out.push(full);
  }
  return out;
}

/** `sub/my_jobs.ts` below the root -> `sub.my_jobs` (with `prefix.` before it when given). */
export function moduleNameOf(root: string, file: string, prefix = ''): string {
  const rel = path.relative(root, file).replace(/\.[^.]+$/, '').split(path.sep).join('.');
  return prefix ? `${prefix}.${rel}` : rel;
}

/** The file of `moduleName` below `root`, or undefined. */
export function moduleFileOf(root: string, moduleName: string, prefix = ''): string | undefined {
  if (prefix && !moduleName.startsWith(`${prefix}.`)) return undefined;
  const rel = (prefix ? moduleName.slice(prefix.length + 1) : moduleName).split('.').join(path.sep);
  for (const ext of EXTENSIONS) {
    const file = path.join(root, rel + ext);
    try {
      if (statSync(file).isFile()) return file;
    } catch { /* try the next extension */ }
  }
  return undefined;
}

/** Whether the service runs from its TypeScript source (through tsx, as the tests do) or from build/. */
const RUNNING_SOURCE = import.meta.url.endsWith('.ts');
let tsLoader: Promise<void> | undefined;

/**
 * tsx's loader (ES modules and CommonJS), registered in this thread the first time the built
 * service imports a TypeScript job: the loader's thread and transforms cost memory, so a
 * service whose jobs are JavaScript never starts them. From the source it is there already.
 */
function typeScriptLoader(): Promise<void> {
  if (RUNNING_SOURCE) return Promise.resolve();
  tsLoader ??= (async () => {
    (await import('tsx/esm/api')).register();
    (await import('tsx/cjs/api')).register();
  })();
  return tsLoader;
}

/** CommonJS modules loaded so far, by file (a `.ts` job outside an ES-module package is loaded as CommonJS). */
const commonJsCache = createRequire(import.meta.url).cache;
const imported = new Set<string>();

/**
 * Imports a module afresh when its file changed (the modification time keys the import). A
 * module loaded as CommonJS is cached by file, whatever the key: its entry goes first.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  if (/\.m?ts$/.test(file)) await typeScriptLoader();
  const url = pathToFileURL(file);
  url.searchParams.set('mtime', String(statSync(file).mtimeMs));
  if (!imported.has(url.href)) {
    delete commonJsCache[file];
    imported.add(url.href);
  }
  return (await import(url.href)) as Record<string, unknown>;
}

/** The variables a receiver gets from the service (the reference's JobHookReceiver / JobButtonReceiver). */
const RECEIVER_VARIABLES = {
  job_hook: { object_change: { type: 'ObjectVar', model: 'extras.objectchange' } },
  job_button: { object_pk: { type: 'StringVar' }, object_model_name: { type: 'StringVar' } },
} as const;

/** A definition with its receiver variables added (a receiver need not declare them). */
export function withReceiverVariables(def: JobDefinition): JobDefinition {
  if (!def.receiver) return def;
  return { ...def, variables: { ...RECEIVER_VARIABLES[def.receiver], ...def.variables } } as JobDefinition;
}

/** The jobs one module exports, in export order; throws on an invalid definition. */
export function jobsOfModule(moduleName: string, exports: Record<string, unknown>, file?: string): FoundJob[] {
  const jobs: FoundJob[] = [];
  for (const [name, value] of Object.entries(exports)) {
    if (!isJobDefinition(value)) continue;
    const error = definitionError(name, value);
    if (error) throw new Error(error);
    jobs.push({ module_name: moduleName, job_class_name: name, definition: withReceiverVariables(value), file });
  }
  return jobs;
}

/** Every job below `root`; modules that fail to load are reported, not thrown. */
export async function discoverJobs(root: string, prefix = ''): Promise<{ jobs: FoundJob[]; broken: BrokenModule[] }> {
  const jobs: FoundJob[] = [];
  const broken: BrokenModule[] = [];
  for (const file of listModuleFiles(root)) {
    const moduleName = moduleNameOf(root, file, prefix);
    try {
      jobs.push(...jobsOfModule(moduleName, await importModule(file), file));
    } catch (err) {
      broken.push({ module_name: moduleName, file, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { jobs, broken };
}
