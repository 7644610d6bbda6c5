import { toNaturalSlug, trimTrailingNulls } from '../core/natural-key.js';
import type { Exec } from '../db/store.js';
import type { DisplayContext, DisplayFn, ResolvedModel, Row } from '../core/registry/types.js';
import { NEEDS_ONLY, Waves } from './load-waves.js';
import type { Services } from './services.js';

const needsCache = new WeakMap<ResolvedModel, readonly string[]>();
const nullPartsCache = new WeakMap<ResolvedModel, readonly null[]>();

/**
 * Loads related rows in bulk and caches them for one request. Display texts and natural keys
 * read through it; what they need is read in waves (load-waves.ts), one query per model, so a
 * page costs a fixed number of queries whatever its size.
 */
export class Loader {
  private readonly cache = new Map<string, Map<string, Row>>();
  /**
   * Natural-key parts, natural slugs and display texts by row (a row object belongs to one model
   * and a newer copy is another object): related rows recur across a page, and a look-up by the
   * object needs no key text made per call.
   */
  private keyParts = new Map<Row, unknown[]>();
  private slugs = new Map<Row, string>();
  private displays = new Map<Row, string>();
  private readonly displayContexts = new Map<ResolvedModel, DisplayContext>();

  /** `generation`: the request's write generation, already read (tree chains are then kept for it: Store.withAncestors). */
  constructor(private readonly services: Services, private readonly exec: Exec, private readonly generation?: Promise<string | null>) {}

  get(modelId: string, id: unknown): Row | undefined {
    return typeof id === 'string' ? this.cache.get(modelId)?.get(id) : undefined;
  }

  add(model: ResolvedModel, rows: Row[]): void {
    const map = this.cache.get(model.id) ?? new Map<string, Row>();
    for (const row of rows) {
      const old = map.get(row.id);
      // A newer copy of a row: texts worked out from the old one may be stale.
      if (old && old !== row) this.forgetTexts();
      map.set(row.id, row);
    }
    this.cache.set(model.id, map);
  }

  private forgetTexts(): void {
    this.keyParts = new Map();
    this.slugs = new Map();
    this.displays = new Map();
  }

  /**
   * Loads the rows not cached yet; returns all requested rows found. `withAncestry`: a tree's
   * rows come with their ancestors in the same statement (the waves then expand the ancestors
   * from the cache, without another statement).
   */
  async ensure(model: ResolvedModel, ids: unknown[], withAncestry = false): Promise<Row[]> {
    const map = this.cache.get(model.id) ?? new Map<string, Row>();
    this.cache.set(model.id, map);
    const missing = [...new Set(ids.filter((id): id is string => typeof id === 'string' && !map.has(id)))];
    if (missing.length > 0 && model.tree && withAncestry) {
      // Ancestors already cached keep their copy.
      const found = await this.services.store.withAncestors(this.exec, model, missing, this.generation);
      this.add(model, found.filter((row) => !map.has(row.id)));
    } else if (missing.length > 0) this.add(model, await this.services.store.byIds(this.exec, model, missing));
    return ids.map((id) => map.get(id as string)).filter((r): r is Row => !!r);
  }

  /** FK fields whose targets display text and natural keys need (worked out once per model). */
  needFields(model: ResolvedModel): readonly string[] {
    let names = needsCache.get(model);
    if (!names) {
      const set = new Set(model.display_needs);
      for (const key of model.natural_key) if (model.fieldMap.get(key)?.kind === 'fk') set.add(key);
      if (model.tree) set.add('parent');
      names = [...set];
      needsCache.set(model, names);
    }
    return names;
  }

  /** Loads every row the display and natural key of `rows` depend on. */
  async ensureNeeds(model: ResolvedModel, rows: Row[]): Promise<void> {
    return this.ensureNeedsOf([[model, rows]]);
  }

  /** `ensureNeeds` of several groups of rows at once, in waves (load-waves.ts): one statement per model. */
  async ensureNeedsOf(groups: [ResolvedModel, Row[]][]): Promise<void> {
    const waves = new Waves(this.services, this);
    for (const [model, rows] of groups) for (const row of rows) waves.expand(model, row, NEEDS_ONLY, false);
    await waves.run();
  }

  /** Ancestors of a tree row, root first (needs ensureNeeds first). */
  ancestors(model: ResolvedModel, row: Row): Row[] {
    const chain: Row[] = [];
    let current = this.get(model.id, row.parent_id);
    while (current && chain.length < 100) {
      chain.unshift(current);
      current = this.get(model.id, current.parent_id);
    }
    return chain;
  }

  /** Natural-key values, FK components expanded, trailing nulls dropped. */
  naturalKey(model: ResolvedModel, row: Row): unknown[] {
    return trimTrailingNulls(this.naturalKeyParts(model, row));
  }

  private naturalKeyParts(model: ResolvedModel, row: Row): unknown[] {
    return keptFor(this.keyParts, row, () => this.computeKeyParts(model, row));
  }

  private computeKeyParts(model: ResolvedModel, row: Row): unknown[] {
    const out: unknown[] = [];
    for (const name of model.natural_key) {
      if (name === 'pk') { out.push(row.id); continue; }
      const field = model.fieldMap.get(name);
      if (!field?.column) continue;
      const value = row[field.column];
      if (field.kind === 'fk' && field.to) {
        const target = this.services.registry.get(field.to);
        const related = this.get(target.id, value);
        out.push(...(related ? this.naturalKeyParts(target, related) : this.unsetParts(target)));
      } else if (field.kind === 'content_type' && typeof value === 'string') {
        out.push(...value.split('.'));
      } else out.push(value);
    }
    return out;
  }

  /** `nullParts` of a model, worked out once (it depends on the registry alone): an unset module of every interface. */
  private unsetParts(model: ResolvedModel): readonly null[] {
    let parts = nullPartsCache.get(model);
    if (!parts) nullPartsCache.set(model, (parts = this.nullParts(model)));
    return parts;
  }

  /**
   * The parts of an unset FK: one null per component of the target's natural key, as the
   * reference flattens it (a template without module type: `acme_box___con0`) and as composite
   * key look-ups read it; a single null where the key recurses (tree parents).
   */
  private nullParts(model: ResolvedModel, seen: ReadonlySet<string> = new Set()): null[] {
    if (seen.has(model.id)) return [null];
    const parts: null[] = [];
    for (const name of model.natural_key) {
      const field = model.fieldMap.get(name);
      if (field?.kind === 'fk' && field.to) {
        const target = this.services.registry.get(field.to);
        if (target.id === model.id || seen.has(target.id)) return [null];
        parts.push(...this.nullParts(target, new Set([...seen, model.id])));
      } else parts.push(...(field?.kind === 'content_type' ? [null, null] : [null]));
    }
    return parts;
  }

  naturalSlug(model: ResolvedModel, row: Row): string {
    return keptFor(this.slugs, row, () => toNaturalSlug(this.naturalKey(model, row), row.id));
  }

  display(model: ResolvedModel, row: Row): string {
    const display = model.display;
    if (typeof display === 'string') {
      const field = model.fieldMap.get(display);
      return String(row[field?.column ?? display] ?? '');
    }
    return keptFor(this.displays, row, () => this.computeDisplay(model, display, row));
  }

  private computeDisplay(model: ResolvedModel, display: DisplayFn, row: Row): string {
    return display(row, this.displayContext(model));
  }

  /** What a display function may read, made once per model and loader (not per row). */
  private displayContext(model: ResolvedModel): DisplayContext {
    let ctx = this.displayContexts.get(model);
    if (ctx) return ctx;
    ctx = {
      related: (modelId, id) => this.get(modelId, id),
      ancestors: (r) => this.ancestors(model, r),
      contentType: (label) => {
        const text = label === null || label === undefined ? '' : String(label);
        const target = this.services.registry.find(text);
        return target ? `${text.split('.')[0]} | ${target.verbose_name}` : text.replace('.', ' | ');
      },
      display: (modelId, id) => {
        const target = this.services.registry.find(modelId);
        const related = target ? this.get(target.id, id) : undefined;
        return target && related ? this.display(target, related) : undefined;
      },
    };
    this.displayContexts.set(model, ctx);
    return ctx;
  }
}

/** The text kept for `row` in `kept`, made by `make` on the first ask. */
function keptFor<T>(kept: Map<Row, T>, row: Row, make: () => T): T {
  let value = kept.get(row);
  if (value === undefined) {
    value = make();
    kept.set(row, value);
  }
  return value;
}
