import type { Params } from '../../src/ops/filters/apply.js';
import type { ResolvedModel } from '../../src/core/registry/types.js';
import type { Services } from '../../src/ops/services.js';

/** A list URL given on a bench tool's command line (`/api/<app>/<model>/?query`): its model and its query as list params. */
export function listPath(services: Services, path: string): { model: ResolvedModel; params: Params } {
  const url = new URL(path, 'http://x');
  const [, , appName, modelPath] = url.pathname.split('/');
  const model = services.registry.byAppPath(appName, modelPath);
  if (!model) throw new Error(`no model at ${path}`);
  const params: Params = new Map();
  for (const [k, v] of url.searchParams) params.set(k, [...(params.get(k) ?? []), v]);
  return { model, params };
}
