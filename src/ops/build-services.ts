import { APP_EXTENSIONS, buildRegistry } from '../apps/index.js';
import { Store } from '../db/store.js';
import { buildExtensions } from './extensions.js';
import type { Config } from '../core/config.js';
import type { Dialect } from '../db/dialects/dialect.js';
import type { Services } from './services.js';

/** The frozen registry, its extensions and the store over one database. */
export function buildServices(config: Config, dialect: Dialect): Services {
  return { config, registry: buildRegistry(), dialect, store: new Store(dialect), extensions: buildExtensions(APP_EXTENSIONS), committed: new Set() };
}
