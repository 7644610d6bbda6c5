import { extensionsFor } from '../extensions.js';
import { Loader } from '../loader.js';
import { joinTable } from '../../db/schema/build-schema.js';
import type { CountSource, Exec } from '../../db/store.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../services.js';

/** What the caller asked for. */
export type SerializeOptions = {
  depth: number;
  baseUrl: string;
  /** Opt-in keys: relationships, computed_fields, config_context. */
  include?: ReadonlySet<string>;
  excludeM2m?: boolean;
  /** Leave out derived counts (create responses, as the reference). */
  omitCounts?: boolean;
  /** Load the rows behind to-many links even at depth 0 (CSV names them; JSON shows only ids). */
  linkTargets?: boolean;
  /**
   * The write generation a read-only request (GET, HEAD) started from: definitions every render
   * reads (custom field keys) are memoized on it where reading a generation costs a statement.
   */
  generation?: Promise<string | null>;
};

/** Data loaded for one serialization: related rows, to-many links, counts. */
export type Loaded = {
  loader: Loader;
  /** `${modelId}.${field}` -> source id -> linked ids or labels. */
  links: Map<string, Map<string, string[]>>;
  /** `${modelId}.${field}` -> id -> count. */
  counts: Map<string, Map<string, number>>;
  /** `${modelId}.${field}` -> id -> value from an extension's computed loader. */
  computed: Map<string, Map<string, unknown>>;
};

function isToMany(field: ResolvedField): boolean {
  return field.behaviour.relation === 'm2m' || field.behaviour.relation === 'content_types';
}

/** Generic FK targets of rows: (model, ids) groups from `<name>_type` / `<name>_id` columns. */
function genericTargets(services: Services, model: ResolvedModel, rows: Row[]): Map<ResolvedModel, string[]> {
  const out = new Map<ResolvedModel, string[]>();
  for (const field of model.fields) {
    if (field.behaviour.relation !== 'generic') continue;
    for (const row of rows) {
      const target = services.registry.find(String(row[`${field.name}_type`] ?? ''));
      const id = row[`${field.name}_id`];
      if (!target || typeof id !== 'string') continue;
      const ids = out.get(target);
      if (ids) ids.push(id);
      else out.set(target, [id]);
    }
  }
  return out;
}

/** Links of `fields` from `rows` (merged into `loaded.links`; one statement) and their target rows, loaded; the target reads run concurrently (PostgreSQL's pool). */
async function loadLinksOf(services: Services, exec: Exec, model: ResolvedModel, fields: ResolvedField[], rows: Row[], loaded: Loaded, withTargets = true) {
  const found = await services.store.linksMany(exec, model, fields, rows.map((r) => r.id));
  const perField = await Promise.all(fields.map(async (field, i): Promise<[ResolvedModel, Row[]] | null> => {
    const links = found[i];
    const key = `${model.id}.${field.name}`;
    loaded.links.set(key, new Map([...(loaded.links.get(key) ?? []), ...links]));
    if (!field.to || !withTargets) return null;
    const target = services.registry.get(field.to);
    return [target, await loaded.loader.ensure(target, [...links.values()].flat())];
  }));
  return perField.filter((x): x is [ResolvedModel, Row[]] => x !== null);
}

/** To-many links of every field of the top-level rows; their targets are rendered in full when depth > 0. */
async function loadLinks(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions, loaded: Loaded) {
  if (opts.excludeM2m) return [];
  const withTargets = opts.depth > 0 || !!opts.linkTargets;
  const linked = await loadLinksOf(services, exec, model, model.fields.filter(isToMany), rows, loaded, withTargets);
  return opts.depth > 0 ? linked : [];
}

/**
 * Links of the to-many fields declared `nested` from the rows of one nested level: one query per
 * model. `withTargets`: the linked rows are read too, for a level whose links are rendered in
 * full (deeper than the edge); at the edge they are brief objects made from the ids alone.
 */
async function loadNestedLinks(services: Services, exec: Exec, level: [ResolvedModel, Row[]][], opts: SerializeOptions, loaded: Loaded, withTargets: boolean) {
  if (opts.excludeM2m) return [];
  const perModel = await Promise.all(level.map(([model, rows]) => {
    const fields = model.fields.filter((f) => f.nested && isToMany(f));
    return fields.length > 0 && rows.length > 0 ? loadLinksOf(services, exec, model, fields, rows, loaded, withTargets) : [];
  }));
  return perModel.flat();
}

/**
 * The (table, column) pairs a count spec counts rows of: an FK column of the source model, a
 * to-many field's join table, or for `*` that field's join table in every model that has it.
 */
function countSources(services: Services, model: ResolvedModel, spec: { model: string; field: string }): CountSource[] {
  const fields = spec.model === '*'
    ? services.registry.referencesTo(model.id).filter((r) => r.field.name === spec.field && r.field.kind === 'm2m')
    : [services.registry.find(spec.model)].flatMap((source) => {
      const field = source?.fieldMap.get(spec.field);
      return source && field ? [{ model: source, field }] : [];
    });
  return fields.flatMap(({ model: source, field }): CountSource[] => {
    if (field.kind === 'm2m') return [{ table: joinTable(source, field), column: 'target_id' }];
    return field.column ? [{ table: source.table, column: field.column }] : [];
  });
}

/** Derived counts of the rows: every source of every count field in one statement, summed per field. */
async function loadCounts(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], loaded: Loaded) {
  const fields = model.fields.filter((f) => f.count);
  const perField = fields.map((f) => countSources(services, model, f.count as { model: string; field: string }));
  const counts = await services.store.countByMany(exec, perField.flat(), rows.map((r) => r.id));
  let next = 0;
  fields.forEach((field, i) => {
    const total = new Map<string, number>();
    for (const counted of counts.slice(next, next + perField[i].length)) {
      for (const [id, n] of counted) total.set(id, (total.get(id) ?? 0) + n);
    }
    next += perField[i].length;
    loaded.counts.set(`${model.id}.${field.name}`, total);
  });
}

/** Runs each extension's computed loaders once per model over every row rendered in full. */
export async function loadComputed(services: Services, exec: Exec, full: [ResolvedModel, Row[]][], opts: SerializeOptions, loaded: Loaded) {
  const byModel = new Map<ResolvedModel, Map<string, Row>>();
  for (const [m, rows] of full) {
    const map = byModel.get(m) ?? new Map<string, Row>();
    for (const r of rows) map.set(r.id, r);
    byModel.set(m, map);
  }
  for (const [model, rows] of byModel) {
    for (const ext of extensionsFor(services, model)) {
      for (const [name, load] of Object.entries(ext.computed ?? {})) {
        if (!model.fieldMap.has(name) || loaded.computed.has(`${model.id}.${name}`)) continue;
        loaded.computed.set(`${model.id}.${name}`, await load({ services, exec, model, rows: [...rows.values()], opts }));
      }
    }
  }
}

/** Loads FK targets (and the links of their `nested` to-many fields) level by level down to the requested depth. */
async function loadNested(services: Services, exec: Exec, start: [ResolvedModel, Row[]][], opts: SerializeOptions, loaded: Loaded) {
  let level = start;
  const full: [ResolvedModel, Row[]][] = [...start];
  for (let d = opts.depth; d > 0 && level.length > 0; d -= 1) {
    const wanted = new Map<ResolvedModel, string[]>();
    for (const [model, rows] of level) {
      for (const field of model.fields) {
        if (field.kind !== 'fk' || !field.to || !field.column) continue;
        const target = services.registry.get(field.to);
        wanted.set(target, [...(wanted.get(target) ?? []), ...rows.map((r) => r[field.column as string] as string)]);
      }
      for (const [target, ids] of genericTargets(services, model, rows)) wanted.set(target, [...(wanted.get(target) ?? []), ...ids]);
    }
    level = await Promise.all([...wanted].map(async ([target, ids]): Promise<[ResolvedModel, Row[]]> => [target, await loaded.loader.ensure(target, ids, true)]));
    const linked = await loadNestedLinks(services, exec, level, opts, loaded, d > 1);
    level.push(...linked);
    full.push(...level);
  }
  return full;
}

/**
 * Loads everything needed to render `rows` at `opts.depth`: one query per related model per
 * level, one per to-many field, one per count field.
 */
export async function loadForSerialization(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions): Promise<Loaded> {
  const loaded: Loaded = { loader: new Loader(services, exec), links: new Map(), counts: new Map(), computed: new Map() };
  loaded.loader.add(model, rows);
  const generic = [...genericTargets(services, model, rows)];
  const [linkedTargets] = await Promise.all([
    loadLinks(services, exec, model, rows, opts, loaded),
    opts.omitCounts ? undefined : loadCounts(services, exec, model, rows, loaded),
    ...generic.map(([target, ids]) => loaded.loader.ensure(target, ids, true)),
  ]);
  // The rows behind the to-many links are nested objects too: their `nested` to-many fields are loaded as well.
  const linkedOfLinked = await loadNestedLinks(services, exec, linkedTargets, opts, loaded, opts.depth > 1);
  const full = await loadNested(services, exec, [[model, rows], ...linkedTargets, ...linkedOfLinked], opts, loaded);
  const genericRows = generic.map(([t, ids]) => [t, ids.map((id) => loaded.loader.get(t.id, id)).filter(Boolean)] as [ResolvedModel, Row[]]);
  await loaded.loader.ensureNeedsOf([...full, ...genericRows]);
  await loadComputed(services, exec, full, opts, loaded);
  return loaded;
}
