import { extensionsFor } from './extensions.js';
import type { ResolvedField, ResolvedModel, Row } from '../core/registry/types.js';
import type { Loader } from './loader.js';
import type { Services } from './services.js';

/**
 * How far a wanted row is used: `r >= 0` rendered in full with FK targets `r` levels below it,
 * NEEDS_ONLY its display text and natural key only, ROW_ONLY the row alone.
 */
export const NEEDS_ONLY = -1;
export const ROW_ONLY = -2;

/** To-many links of some rows, loaded for the waves: one map (source id -> linked ids) per field. */
export type LinkReader = (model: ResolvedModel, fields: ResolvedField[], rows: Row[]) => Promise<Map<string, string[]>[]>;

/** Models a state reaches; EVERY when a generic relation may point anywhere. */
export type Reach = ReadonlySet<ResolvedModel> | 'every';

const reachCache = new WeakMap<ResolvedModel, Map<string, Reach>>();

/** Whether a field is an FK whose target rows a nested rendering reads. */
function isFk(field: ResolvedField): boolean {
  return field.kind === 'fk' && !!field.to && !!field.column;
}

/** Whether a field holds many related objects (many-to-many, content types). */
export function isToMany(field: ResolvedField): boolean {
  return field.behaviour.relation === 'm2m' || field.behaviour.relation === 'content_types';
}

const linkedCache = new WeakMap<ResolvedModel, ResolvedField[]>();

/**
 * The to-many fields of a model whose links are read from their join tables: all but those an
 * extension computes, whose value the rendering takes from the extension (an IP address's NAT
 * list); their links would be read, and their targets loaded, for nothing. Worked out once per model.
 */
export function linkedFields(services: Services, model: ResolvedModel): ResolvedField[] {
  let fields = linkedCache.get(model);
  if (!fields) {
    const computed = new Set(extensionsFor(services, model).flatMap((ext) => Object.keys(ext.computed ?? {})));
    fields = model.fields.filter((field) => isToMany(field) && !computed.has(field.name));
    linkedCache.set(model, fields);
  }
  return fields;
}

/** A model's relations as the waves follow them, worked out once per model. */
type Edges = {
  /** FK columns the display text and natural key need, with their targets (a tree's parent included). */
  needs: [string, ResolvedModel][];
  /** Generic relations the display text or natural key need (`<name>_type`, `<name>_id`). */
  needsGeneric: string[];
  /** Every FK column and its target: rendered in full while depth remains. */
  fks: [string, ResolvedModel][];
  /** Every generic relation's name. */
  generic: string[];
  /** To-many fields declared `nested`: their links are read for rows rendered in full below the top. */
  links: ResolvedField[];
};

const edgesCache = new WeakMap<ResolvedModel, Edges>();

function edgesOf(services: Services, loader: Loader, model: ResolvedModel): Edges {
  let edges = edgesCache.get(model);
  if (edges) return edges;
  edges = { needs: [], needsGeneric: [], fks: [], generic: [], links: linkedFields(services, model).filter((f) => f.nested) };
  for (const name of loader.needFields(model)) {
    const field = model.fieldMap.get(name);
    if (field?.kind === 'generic_fk') edges.needsGeneric.push(name);
    else if (field?.to && field.column) edges.needs.push([field.column, services.registry.get(field.to)]);
  }
  for (const field of model.fields) {
    if (isFk(field)) edges.fks.push([field.column as string, services.registry.get(field.to as string)]);
    else if (field.behaviour.relation === 'generic') edges.generic.push(field.name);
  }
  edgesCache.set(model, edges);
  return edges;
}

/**
 * Related rows read in waves, one statement per model a wave, a model read only once every
 * model that may still ask for more of its rows has been read (its rows then all come in one
 * statement): the waves follow the models' FK graph, not the chains of the rows. Rows wanted
 * while cached are expanded at once, without a statement.
 */
export class Waves {
  private readonly wanted = new Map<ResolvedModel, Map<string, number>>();
  private readonly linksWanted = new Map<ResolvedModel, Map<string, [Row, number]>>();
  private readonly expanded = new Map<ResolvedModel, Map<string, number>>();
  /** Rows rendered in full below the top level (r >= 0), by model. */
  readonly full = new Map<ResolvedModel, Map<string, Row>>();

  constructor(private readonly services: Services, private readonly loader: Loader, private readonly readLinks?: LinkReader) {}

  /** Asks for a row at `r`: expanded now when cached, else read in a later wave. */
  want(model: ResolvedModel, id: unknown, r: number): void {
    if (typeof id !== 'string') return;
    const row = this.loader.get(model.id, id);
    if (row) return this.expand(model, row, r, false);
    let ids = this.wanted.get(model);
    if (!ids) this.wanted.set(model, (ids = new Map()));
    if ((ids.get(id) ?? ROW_ONLY - 1) < r) ids.set(id, r);
  }

  /** Asks for what a row at `r` needs: its display's and natural key's rows, FK and generic targets while depth remains, nested links. */
  expand(model: ResolvedModel, row: Row, r: number, top: boolean): void {
    let done = this.expanded.get(model);
    if (!done) this.expanded.set(model, (done = new Map()));
    if ((done.get(row.id) ?? ROW_ONLY - 1) >= r) return;
    done.set(row.id, r);
    if (r === ROW_ONLY) return;
    if (r >= 0 && !top) this.addFull(model, row);
    const edges = edgesOf(this.services, this.loader, model);
    for (const [column, target] of edges.needs) this.want(target, row[column], NEEDS_ONLY);
    for (const name of edges.needsGeneric) this.wantGeneric(row, name, NEEDS_ONLY);
    if (r > 0) for (const [column, target] of edges.fks) this.want(target, row[column], r - 1);
    // Generic targets at the top always (a missing one renders null), below it while depth remains.
    // At depth 0 the row alone: its brief needs nothing more, and an owner whose display is made
    // of a generic target's declares that field in display_needs (`needsGeneric` above).
    if (r > 0 || top) for (const name of edges.generic) this.wantGeneric(row, name, r > 0 ? r - 1 : ROW_ONLY);
    if (!top && r >= 0 && this.readLinks && edges.links.length > 0) this.wantLinks(model, row, r);
  }

  private wantGeneric(row: Row, name: string, r: number): void {
    const target = this.services.registry.find(String(row[`${name}_type`] ?? ''));
    if (target) this.want(target, row[`${name}_id`], r);
  }

  private addFull(model: ResolvedModel, row: Row): void {
    let rows = this.full.get(model);
    if (!rows) this.full.set(model, (rows = new Map()));
    rows.set(row.id, row);
  }

  private wantLinks(model: ResolvedModel, row: Row, r: number): void {
    let rows = this.linksWanted.get(model);
    if (!rows) this.linksWanted.set(model, (rows = new Map()));
    if ((rows.get(row.id)?.[1] ?? ROW_ONLY - 1) < r) rows.set(row.id, [row, r]);
  }

  /**
   * Reads wave after wave until nothing is wanted. `pending`: the top-level rows' links, still
   * being read, whose targets they will want (`reach`: the models that may lead to); those
   * models wait for them (read once, with the link targets), the others are read meanwhile.
   * `waveDone`: called after each wave's rows were expanded, before the next wave's reads start.
   */
  async run(pending?: { done: Promise<unknown>; reach: Reach }, waveDone?: () => void): Promise<void> {
    let waiting = pending;
    // `done` settles after the links' targets are wanted: from then on nothing waits for it.
    pending?.done.then(() => { waiting = undefined; }, () => undefined);
    while (this.wanted.size > 0 || this.linksWanted.size > 0 || waiting) {
      const models = this.ready(waiting?.reach);
      if (models.length === 0 && waiting) {
        await waiting.done;
        waiting = undefined;
        continue;
      }
      const reads = models.map(async (model) => {
        const ids = this.wanted.get(model) as Map<string, number>;
        this.wanted.delete(model);
        return { model, ids, rows: await this.loader.ensure(model, [...ids.keys()], true) };
      });
      const links = [...this.linksWanted].map(async ([model, rows]) => {
        const fields = edgesOf(this.services, this.loader, model).links;
        return { model, fields, rows, found: await (this.readLinks as LinkReader)(model, fields, [...rows.values()].map(([row]) => row)) };
      });
      this.linksWanted.clear();
      const [read, linked] = await Promise.all([Promise.all(reads), Promise.all(links)]);
      for (const { model, ids, rows } of read) for (const row of rows) this.expand(model, row, ids.get(row.id) as number, false);
      for (const { fields, rows, found } of linked) this.wantLinkTargets(fields, rows, found);
      waveDone?.();
    }
  }

  /** Linked rows of rows at r >= 1, wanted one level below (at the edge, links render from their ids alone). */
  private wantLinkTargets(fields: ResolvedField[], rows: Map<string, [Row, number]>, found: Map<string, string[]>[]): void {
    fields.forEach((field, i) => {
      if (!field.to) return;
      const target = this.services.registry.get(field.to);
      for (const [source, ids] of found[i]) {
        const r = rows.get(source)?.[1] ?? 0;
        if (r >= 1) for (const id of ids) this.want(target, id, r - 1);
      }
    });
  }

  /** The models the targets of `fields` at `r` may lead to (the targets included): what waits for those links. */
  linksReach(fields: ResolvedField[], r: number): Reach {
    const reached = new Set<ResolvedModel>();
    for (const field of fields) {
      if (!field.to) continue;
      const target = this.services.registry.get(field.to);
      const further = this.reach(target, r);
      if (further === 'every') return further;
      reached.add(target);
      for (const model of further) reached.add(model);
    }
    return reached;
  }

  /**
   * Models to read in this wave: those no other wanted model (nor a pending link, nor `blocked`:
   * the reach of links still being read) may still ask rows of; all wanted models when a cycle
   * leaves none (none while links are still being read: they are waited for first).
   */
  private ready(blocked?: Reach): ResolvedModel[] {
    const sources: [ResolvedModel | null, Reach][] = blocked ? [[null, blocked]] : [];
    for (const [model, ids] of this.wanted) sources.push([model, this.reach(model, Math.max(...ids.values()))]);
    for (const [model, rows] of this.linksWanted) {
      const r = Math.max(...[...rows.values()].map(([, depth]) => depth));
      if (r >= 1) sources.push([null, this.linksReach(edgesOf(this.services, this.loader, model).links, r - 1)]);
    }
    const ready = [...this.wanted.keys()].filter((model) => !sources.some(([from, reach]) => from !== model && (reach === 'every' || reach.has(model))));
    return ready.length > 0 || blocked ? ready : [...this.wanted.keys()];
  }

  /** The models rows of `model` at `r` may lead to (in one step or more), worked out once per model and r. */
  private reach(model: ResolvedModel, r: number): Reach {
    const key = `${r} ${this.readLinks ? 1 : 0}`;
    let perModel = reachCache.get(model);
    if (!perModel) reachCache.set(model, (perModel = new Map()));
    let found = perModel.get(key);
    if (!found) {
      found = this.walk(model, r);
      perModel.set(key, found);
    }
    return found;
  }

  private walk(start: ResolvedModel, r: number): Reach {
    const seen = new Set<string>();
    const reached = new Set<ResolvedModel>();
    const queue: [ResolvedModel, number][] = [[start, r]];
    while (queue.length > 0) {
      const [model, depth] = queue.pop() as [ResolvedModel, number];
      const steps = this.steps(model, depth);
      if (steps === 'every') return 'every';
      for (const [next, nextDepth] of steps) {
        reached.add(next);
        const key = `${next.id} ${nextDepth}`;
        if (!seen.has(key)) {
          seen.add(key);
          queue.push([next, nextDepth]);
        }
      }
    }
    return reached;
  }

  /** The (model, r) a row of `model` at `r` may ask for: as `expand`, by model rather than by row. */
  private steps(model: ResolvedModel, r: number): [ResolvedModel, number][] | 'every' {
    if (r === ROW_ONLY) return [];
    const edges = edgesOf(this.services, this.loader, model);
    if (edges.needsGeneric.length > 0 || (r > 0 && edges.generic.length > 0)) return 'every';
    // A tree's ancestors come with its rows (one statement): no further wave of the same model.
    const out: [ResolvedModel, number][] = edges.needs.filter(([, target]) => !(model.tree && target === model)).map(([, target]) => [target, NEEDS_ONLY]);
    if (r <= 0) return out;
    for (const [, target] of edges.fks) out.push([target, r - 1]);
    if (this.readLinks) for (const field of edges.links) if (field.to) out.push([this.services.registry.get(field.to), r - 1]);
    return out;
  }
}
