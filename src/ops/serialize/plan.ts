import { extensionsFor } from '../extensions.js';
import { Loader } from '../loader.js';
import { linkedFields, ROW_ONLY, Waves } from '../load-waves.js';
import { joinTable } from '../../db/schema/build-schema.js';
import type { CountSource, Exec } from '../../db/store.js';
import type { ResolvedField, ResolvedModel, Row } from '../../core/registry/types.js';
import type { ComputedLoader } from '../extensions.js';
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


/** Links `found` of `fields`, merged into `loaded.links`. */
function mergeLinks(model: ResolvedModel, fields: ResolvedField[], found: Map<string, string[]>[], loaded: Loaded) {
  fields.forEach((field, i) => {
    const key = `${model.id}.${field.name}`;
    const had = loaded.links.get(key);
    loaded.links.set(key, had ? new Map([...had, ...found[i]]) : found[i]);
  });
}

/** Links of `fields` from `rows`, merged into `loaded.links` (one statement). */
async function loadLinksOf(services: Services, exec: Exec, model: ResolvedModel, fields: ResolvedField[], rows: Row[], loaded: Loaded) {
  const found = await services.store.linksMany(exec, model, fields, rows.map((r) => r.id));
  mergeLinks(model, fields, found, loaded);
  return found;
}

/** How far the targets of the top-level rows' links are used (rendered in full when depth > 0); null: not read. */
function linkTargetDepth(opts: SerializeOptions): number | null {
  return opts.depth > 0 ? opts.depth - 1 : opts.linkTargets ? ROW_ONLY : null;
}

/** The top-level rows' links `found`: their targets are wanted (rendered in full when depth > 0). */
function wantLinkTargets(services: Services, fields: ResolvedField[], found: Map<string, string[]>[], opts: SerializeOptions, waves: Waves) {
  const r = linkTargetDepth(opts);
  if (r === null) return;
  fields.forEach((field, i) => {
    if (!field.to) return;
    const target = services.registry.get(field.to);
    for (const ids of found[i].values()) for (const id of ids) waves.want(target, id, r);
  });
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

/** A model's count fields, each with the `counts` key it fills and its sources, and every source in order. */
type CountPlan = { fields: { key: string; sources: CountSource[] }[]; sources: CountSource[] };

const countPlans = new WeakMap<ResolvedModel, CountPlan>();

/** The count plan of a model, worked out once (it depends on the registry alone). */
function countPlanOf(services: Services, model: ResolvedModel): CountPlan {
  let plan = countPlans.get(model);
  if (!plan) {
    const fields = model.fields.filter((f) => f.count).map((f) => ({ key: `${model.id}.${f.name}`, sources: countSources(services, model, f.count as { model: string; field: string }) }));
    plan = { fields, sources: fields.flatMap((f) => f.sources) };
    countPlans.set(model, plan);
  }
  return plan;
}

const NO_COUNTS: CountPlan = { fields: [], sources: [] };

/** The to-many links (one map per linked field) and the count sources' counts of some rows, read by their ids alone. */
export type LinksAndCounts = { ids: string[]; read: Promise<{ links: Map<string, string[]>[]; counts: Map<string, number>[] }> };

/**
 * The read of the top-level rows' to-many links (linkedFields) and derived counts (every source
 * of every count field), one statement (store.linksAndCounts). It needs the ids alone: a detail
 * GET starts it before its row is read (on PostgreSQL both then go out in one batch, a round
 * trip fewer), see `serializeOne`.
 */
export function readLinksAndCounts(services: Services, exec: Exec, model: ResolvedModel, ids: string[], opts: SerializeOptions): LinksAndCounts {
  return { ids, read: services.store.linksAndCounts(exec, model, topLinkFields(services, model, opts), topCountPlan(services, model, opts).sources, ids) };
}

/** The to-many fields whose links the top-level rows render (none with exclude_m2m). */
function topLinkFields(services: Services, model: ResolvedModel, opts: SerializeOptions): ResolvedField[] {
  return opts.excludeM2m ? [] : linkedFields(services, model);
}

/** The count fields the top-level rows render (none where the options omit counts). */
function topCountPlan(services: Services, model: ResolvedModel, opts: SerializeOptions): CountPlan {
  return opts.omitCounts ? NO_COUNTS : countPlanOf(services, model);
}

/** The links and counts read for `rows` (`early` when it was read for the same ids) put into `loaded`, each count field's sources summed. */
async function loadLinksAndCounts(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions, loaded: Loaded, waves: Waves, early?: LinksAndCounts) {
  const ids = rows.map((r) => r.id);
  const same = early && early.ids.length === ids.length && early.ids.every((id, i) => id === ids[i]);
  const { links, counts } = await (same ? early : readLinksAndCounts(services, exec, model, ids, opts)).read;
  const fields = topLinkFields(services, model, opts);
  mergeLinks(model, fields, links, loaded);
  wantLinkTargets(services, fields, links, opts, waves);
  let next = 0;
  for (const { key, sources } of topCountPlan(services, model, opts).fields) {
    loaded.counts.set(key, sumCounts(counts, next, sources.length));
    next += sources.length;
  }
}

/** The counts of `length` sources from `first` summed per id (one source's map as it is). */
function sumCounts(counts: Map<string, number>[], first: number, length: number): Map<string, number> {
  if (length === 1) return counts[first];
  const total = new Map<string, number>();
  for (let i = first; i < first + length; i += 1) {
    for (const [id, n] of counts[i]) total.set(id, (total.get(id) ?? 0) + n);
  }
  return total;
}

/** A model's computed loaders: its fields' keys (`${modelId}.${field}`), the fields and the extensions' loaders. */
type ComputedPlan = { key: string; field: ResolvedField; load: ComputedLoader }[];

const computedPlans = new WeakMap<ResolvedModel, ComputedPlan>();

/** The computed loaders of a model's own fields, in the extensions' order, worked out once per model. */
function computedPlanOf(services: Services, model: ResolvedModel): ComputedPlan {
  let plan = computedPlans.get(model);
  if (!plan) {
    plan = [];
    for (const ext of extensionsFor(services, model)) {
      for (const [name, load] of Object.entries(ext.computed ?? {})) {
        const field = model.fieldMap.get(name);
        if (field) plan.push({ key: `${model.id}.${name}`, field, load });
      }
    }
    computedPlans.set(model, plan);
  }
  return plan;
}

/** Computed values being read, by field key: a read per group of rows (the top level's, those rendered below it). */
type ComputedReads = Map<string, Promise<Map<string, unknown>>[]>;

/**
 * The computed loaders of one rendering, started for each group of rows as soon as it is known
 * (a page's rows at once, the rows rendered below them after the wave that read them: on
 * PostgreSQL their statements join the next wave's batch), each row given to them once; `keep`
 * waits for them all. An opt-in field the options leave out is not rendered at any level: its
 * loader is not run; nor are the loaders of keys `loaded` has already.
 */
class ComputedReader {
  private readonly reads: ComputedReads = new Map();
  private readonly given = new Map<ResolvedModel, Set<string>>();

  constructor(private readonly services: Services, private readonly exec: Exec, private readonly opts: SerializeOptions, private readonly loaded: Loaded) {}

  /** Starts `model`'s loaders over those of `rows` not given to them yet. */
  start(model: ResolvedModel, rows: Iterable<Row>): void {
    let given = this.given.get(model);
    if (!given) this.given.set(model, (given = new Set()));
    const fresh: Row[] = [];
    for (const row of rows) {
      if (given.has(row.id)) continue;
      given.add(row.id);
      fresh.push(row);
    }
    if (fresh.length === 0) return;
    const { services, exec, opts } = this;
    for (const { key, field, load } of computedPlanOf(services, model)) {
      if (this.loaded.computed.has(key) || (field.opt_in && !opts.include?.has(field.opt_in))) continue;
      const read = load({ services, exec, model, rows: fresh, opts });
      // Awaited by keep(); a rendering that fails before then would leave it unhandled.
      read.catch(() => undefined);
      const parts = this.reads.get(key);
      if (parts) parts.push(read);
      else this.reads.set(key, [read]);
    }
  }

  /** Starts the rows of `full` (rendered in full below the top, by model) not given yet. */
  startAll(full: Map<ResolvedModel, Map<string, Row>>): void {
    for (const [model, rows] of full) this.start(model, rows.values());
  }

  /** Waits for every read and keeps each key's values in `loaded` (its groups' maps merged). */
  async keep(): Promise<void> {
    await Promise.all([...this.reads].map(async ([key, parts]) => {
      const maps = await Promise.all(parts);
      this.loaded.computed.set(key, maps.length === 1 ? maps[0] : new Map(maps.flatMap((map) => [...map])));
    }));
  }
}

/** Runs each extension's computed loaders once per model over every row rendered in full, all at once. */
export async function loadComputed(services: Services, exec: Exec, full: [ResolvedModel, Row[]][], opts: SerializeOptions, loaded: Loaded) {
  const computed = new ComputedReader(services, exec, opts, loaded);
  for (const [model, rows] of full) computed.start(model, rows);
  await computed.keep();
}

/**
 * Loads everything needed to render `rows` at `opts.depth`: one query for the to-many links
 * and the counts (`early` when it was started already), beside the first wave of related rows
 * (load-waves.ts: one query per related model wherever the FK graph allows it; on PostgreSQL the
 * statements of one wave go out in one batch), then the waves that follow; models the links'
 * targets may lead to wait for the links, so each is still read once. The top rows' computed
 * values are read from the start, those of rows rendered below them after the wave that read them.
 */
export async function loadForSerialization(services: Services, exec: Exec, model: ResolvedModel, rows: Row[], opts: SerializeOptions, early?: LinksAndCounts): Promise<Loaded> {
  const loaded: Loaded = { loader: new Loader(services, exec, opts.generation), links: new Map(), counts: new Map(), computed: new Map() };
  loaded.loader.add(model, rows);
  const readLinks = opts.excludeM2m ? undefined : (m: ResolvedModel, fields: ResolvedField[], found: Row[]) => loadLinksOf(services, exec, m, fields, found, loaded);
  const waves = new Waves(services, loaded.loader, readLinks);
  for (const row of rows) waves.expand(model, row, opts.depth, true);
  const links = loadLinksAndCounts(services, exec, model, rows, opts, loaded, waves, early);
  const computed = new ComputedReader(services, exec, opts, loaded);
  computed.start(model, rows);
  const r = linkTargetDepth(opts);
  const fields = topLinkFields(services, model, opts);
  const afterWave = () => computed.startAll(waves.full);
  await Promise.all([links, waves.run(r === null || fields.length === 0 ? undefined : { done: links, reach: waves.linksReach(fields, r) }, afterWave)]);
  afterWave();
  await computed.keep();
  return loaded;
}
