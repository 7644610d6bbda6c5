import { maxTreeDepth } from '../export.js';
import { CSV_NO_OBJECT, CSV_NULL } from './cells.js';
import type { Loader } from '../loader.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';

/** FK field name -> natural-key lookups of its target (`name`, `parent__name`, ...). */
export type FkLookups = ReadonlyMap<string, readonly string[]>;

type Walk = { services: Services; depths: Map<string, number> };

/** The natural-key field of a model that points back at the model itself (tree parent). */
function selfKeyField(model: ResolvedModel): ResolvedField | undefined {
  return model.natural_key.map((n) => model.fieldMap.get(n)).find((f) => f?.kind === 'fk' && f.to === model.id);
}

async function treeDepth(walk: Walk, model: ResolvedModel, parent: ResolvedField): Promise<number> {
  const known = walk.depths.get(model.id);
  if (known !== undefined) return known;
  const depth = await maxTreeDepth(walk.services, model, parent);
  walk.depths.set(model.id, depth);
  return depth;
}

/**
 * Lookups naming a model's natural key, related keys expanded (`manufacturer__name`), and a
 * self-referencing key repeated once per tree level below `levels`, as the reference's
 * `natural_key_field_lookups` (`name`, `parent__name`, `parent__parent__name`, ...).
 */
async function keyLookups(walk: Walk, model: ResolvedModel, levels: number, stack: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const name of model.natural_key) {
    const field = model.fieldMap.get(name);
    // A model without a natural key of its own is keyed by its primary key, named `pk` as the reference names it.
    if (name === 'pk' || name === 'id' || !field) { out.push(name === 'id' ? 'pk' : name); continue; }
    if (field.kind !== 'fk' || !field.to) { out.push(name); continue; }
    const inner = await relatedLookups(walk, model, field, levels, stack);
    const path = model.natural_key_paths[name] ?? name;
    out.push(...inner.map((l) => `${path}__${l}`));
  }
  return out;
}

async function relatedLookups(walk: Walk, model: ResolvedModel, field: ResolvedField, levels: number, stack: readonly string[]): Promise<string[]> {
  if (field.to === model.id) return levels > 0 ? keyLookups(walk, model, levels - 1, stack) : [];
  if (stack.includes(field.to as string)) return ['pk'];
  const target = walk.services.registry.get(field.to as string);
  return lookupsOf(walk, target, [...stack, model.id]);
}

/** Natural-key lookups of a model as a whole (a tree to its current depth). */
async function lookupsOf(walk: Walk, model: ResolvedModel, stack: readonly string[]): Promise<string[]> {
  const parent = selfKeyField(model);
  const levels = parent ? await treeDepth(walk, model, parent) : 0;
  const lookups = await keyLookups(walk, model, levels, [...stack, model.id]);
  return lookups.length > 0 ? lookups : ['pk'];
}

/** For every FK field of `model`, the lookup columns the CSV shows in its place. */
export async function buildFkLookups(services: Services, model: ResolvedModel): Promise<FkLookups> {
  const walk: Walk = { services, depths: new Map() };
  const out = new Map<string, string[]>();
  for (const field of model.fields) {
    if (field.behaviour.relation !== 'fk' || !field.to || field.hidden || field.write_only) continue;
    out.set(field.name, await lookupsOf(walk, services.registry.get(field.to), []));
  }
  return out;
}

/**
 * Text of a stored value in a lookup column: the reference reads the database value as text
 * (null is `NULL`); kinds that render stored values differently (decimals) render first.
 */
function lookupText(field: ResolvedField, value: unknown): string {
  if (value === null || value === undefined) return CSV_NULL;
  const shown = field.kind === 'choice' || field.behaviour.relation ? value : field.behaviour.render(value, field);
  if (shown === true) return 'True';
  if (shown === false) return 'False';
  return typeof shown === 'object' && shown !== null ? JSON.stringify(shown) : String(shown);
}

/**
 * The value of `lookup` (`parent__parent__name`) read from `row` through loaded related rows:
 * `NoObject` when an object on the way is missing.
 */
export function readLookup(services: Services, loader: Loader, model: ResolvedModel, row: Row, lookup: string): string {
  const parts = lookup.split('__');
  let current: Row | undefined = row;
  let currentModel = model;
  for (let i = 0; i < parts.length - 1; i += 1) {
    // A natural-key field named by the reference's path through another object reads the field itself.
    for (const name in currentModel.natural_key_paths) {
      const path = currentModel.natural_key_paths[name].split('__');
      if (path.every((p, k) => parts[i + k] === p)) { parts.splice(i, path.length, name); break; }
    }
    const part = parts[i];
    const field = currentModel.fieldMap.get(part);
    if (!field?.to || !field.column) return CSV_NO_OBJECT;
    currentModel = services.registry.get(field.to);
    current = loader.get(currentModel.id, current[field.column]);
    if (!current) return CSV_NO_OBJECT;
  }
  const last = parts[parts.length - 1];
  if (last === 'pk' || last === 'id') return current.id;
  const field = currentModel.fieldMap.get(last);
  return field?.column ? lookupText(field, current[field.column]) : CSV_NULL;
}
