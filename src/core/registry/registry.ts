import { RegistryError, resolveModel } from './resolve.js';
import type { AuthoredModel, ResolvedField, ResolvedModel } from './types.js';

/** A field of another model that references a given model. */
export type Reference = { model: ResolvedModel; field: ResolvedField };

/**
 * An application: its label, the models it declares and, in `root_paths`, the list-like
 * endpoints beyond its models that its API root names (e.g. `console-connections`), and in
 * `searchable_models` the models the global search covers (the reference's app config list).
 */
export type AppDefinition = { label: string; models: AuthoredModel[]; root_paths?: string[]; searchable_models?: string[] };

/** Features whose records point at objects through UUID columns (generic foreign keys). */
const UUID_ONLY_FEATURES = ['change_logging', 'notes', 'relationships'];

/**
 * Integer-id models are referenced through join tables only: FK columns and generic references
 * (change log, notes, relationship associations) hold UUIDs, as the reference's auth.group
 * has none of those features.
 */
function checkIntegerIds(model: ResolvedModel): void {
  const bad = UUID_ONLY_FEATURES.find((f) => model.features.has(f));
  if (model.id_type === 'integer' && bad) throw new RegistryError(`${model.id}: integer ids cannot carry the ${bad} feature`);
}

/** A `change_related` via path must be FKs, each on the previous field's target, ending at the model itself. */
function checkChangeVia(model: ResolvedModel, byId: ReadonlyMap<string, ResolvedModel>): void {
  const via = model.change_related?.via ?? [];
  if (via.length === 0) return;
  let at: ResolvedModel | undefined = model;
  for (const name of via) {
    const field: ResolvedField | undefined = at?.fieldMap.get(name);
    if (field?.kind !== 'fk' || !field.to) throw new RegistryError(`${model.id}: change_related via "${name}" is not an FK of ${at?.id}`);
    at = byId.get(field.to);
  }
  if (at !== model) throw new RegistryError(`${model.id}: change_related via ends at ${at?.id}, not at the model itself`);
}

function checkIntegerTarget(model: ResolvedModel, field: ResolvedField, target: ResolvedModel): void {
  if (target.id_type === 'integer' && field.kind === 'fk') throw new RegistryError(`${model.id}.${field.name}: foreign keys to integer-id model ${target.id} are not supported`);
}

/**
 * The frozen set of resolved models. Built once at start-up from the app definitions;
 * adding a model after that throws.
 */
export class Registry {
  readonly models: readonly ResolvedModel[];
  readonly apps: readonly string[];
  /** Extra API-root entries per app label (AppDefinition `root_paths`). */
  readonly rootPaths: ReadonlyMap<string, readonly string[]>;
  /** The models the global search covers, app by app (AppDefinition `searchable_models`). */
  readonly searchable: readonly ResolvedModel[];
  private readonly byId: Map<string, ResolvedModel>;
  private readonly byPath: Map<string, ResolvedModel>;
  private readonly refs: Map<string, Reference[]>;

  constructor(apps: AppDefinition[]) {
    const models = apps.flatMap((app) => app.models.map(resolveModel));
    this.byId = new Map();
    this.byPath = new Map();
    for (const model of models) {
      if (this.byId.has(model.id)) throw new RegistryError(`duplicate model ${model.id}`);
      checkIntegerIds(model);
      this.byId.set(model.id, model);
      if (!model.internal) this.byPath.set(`${model.app}/${model.path}`, model);
    }
    this.refs = new Map();
    for (const model of models) checkChangeVia(model, this.byId);
    for (const model of models) {
      for (const field of model.fields) {
        if ((field.kind === 'fk' || field.kind === 'm2m') && field.to) {
          if (!this.byId.has(field.to)) throw new RegistryError(`${model.id}.${field.name}: target ${field.to} is not registered`);
          checkIntegerTarget(model, field, this.byId.get(field.to) as ResolvedModel);
          const list = this.refs.get(field.to) ?? [];
          list.push({ model, field });
          this.refs.set(field.to, list);
        }
      }
    }
    this.models = Object.freeze(models);
    this.apps = Object.freeze(apps.map((a) => a.label));
    this.rootPaths = new Map(apps.map((a) => [a.label, Object.freeze([...(a.root_paths ?? [])])]));
    this.searchable = Object.freeze(apps.flatMap((a) => (a.searchable_models ?? []).map((name) => {
      const model = this.byId.get(`${a.label}.${name}`);
      if (!model) throw new RegistryError(`${a.label}: searchable model ${name} is not registered`);
      return model;
    })));
    Object.freeze(this);
  }

  get(id: string): ResolvedModel {
    const model = this.byId.get(id);
    if (!model) throw new RegistryError(`unknown model ${id}`);
    return model;
  }

  find(id: string): ResolvedModel | undefined {
    return this.byId.get(id);
  }

  /** The served model at `/api/<app>/<path>/` (internal models have none). */
  byAppPath(app: string, path: string): ResolvedModel | undefined {
    return this.byPath.get(`${app}/${path}`);
  }

  /** Fields of other models (and this one) that point at `modelId`. */
  referencesTo(modelId: string): readonly Reference[] {
    return this.refs.get(modelId) ?? [];
  }

  /**
   * Models a content-type field may name: its fixed `content_type_models`, else the models with
   * its `content_type_feature`, else (or when none has it) every model.
   */
  contentTypeChoices(field: ResolvedField): ResolvedModel[] {
    if (field.content_type_models) return field.content_type_models.map((id) => this.get(id));
    const limited = field.content_type_feature ? this.withFeature(field.content_type_feature) : [];
    return limited.length > 0 ? limited : [...this.models];
  }

  /** Models carrying a feature (e.g. `tags`, or the name of a field such as `status`). */
  withFeature(feature: string): ResolvedModel[] {
    return this.models.filter((m) => m.features.has(feature) || m.fieldMap.get(feature)?.limit_to_content_type);
  }
}
