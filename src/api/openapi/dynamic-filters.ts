import { renderDocument } from './document.js';
import { toFilterParameters } from './parameters.js';
import type { FilterDef } from '../../ops/filters/filter-set.js';
import type { Services } from '../../ops/services.js';
import type { RenderedDocument } from './document.js';
import type { Parameter } from './parameters.js';
import type { PathItem } from './paths.js';

/**
 * The filters whose names depend on data (`cf_<key>`, `cr_<key>__<side>`), as they exist now,
 * by list path: every extension's `listDynamicFilters`, called once (one query each).
 */
export async function loadDynamicFilterParameters(services: Services): Promise<Map<string, Parameter[]>> {
  const exec = services.dialect.db;
  const listers = new Set([...services.extensions.values()].flat().flatMap((ext) => (ext.listDynamicFilters ? [ext.listDynamicFilters] : [])));
  const byModel = new Map<string, Record<string, FilterDef>>();
  for (const list of listers) {
    for (const [modelId, families] of await list({ services, exec })) byModel.set(modelId, { ...byModel.get(modelId), ...families });
  }
  const out = new Map<string, Parameter[]>();
  for (const [modelId, families] of byModel) {
    const model = services.registry.get(modelId);
    out.set(`/${model.app}/${model.path}/`, toFilterParameters(model, families));
  }
  return out;
}

function withParameters(item: PathItem, extra: Parameter[]): PathItem {
  const get = item.get as Record<string, unknown>;
  const known = new Set(((get.parameters ?? []) as Parameter[]).map((p) => p.name));
  return { ...item, get: { ...get, parameters: [...((get.parameters ?? []) as Parameter[]), ...extra.filter((p) => !known.has(p.name))] } };
}

/**
 * The cached document with the dynamic filters added to the list operations (a new rendering,
 * with its own ETag; the cached one is returned as is when there are none).
 */
export function addDynamicFilters(rendered: RenderedDocument, dynamic: Map<string, Parameter[]>): RenderedDocument {
  if (dynamic.size === 0) return rendered;
  const paths = { ...rendered.document.paths };
  for (const [path, extra] of dynamic) if (paths[path]?.get) paths[path] = withParameters(paths[path], extra);
  return renderDocument({ ...rendered.document, paths });
}
