import { assertValidSchema } from 'graphql';
import { buildSchema } from './build-schema.js';
import { loadDynamicDefs } from './dynamic-defs.js';
import type { GraphQLSchema } from 'graphql';
import type { Services } from '../../ops/services.js';

/** Schemas by services (one per app) and fingerprint of the data that shapes them. */
const built = new WeakMap<Services, { fingerprint: string; schema: GraphQLSchema }>();

/**
 * The schema as the data now shapes it: rebuilt (and validated) only when the definitions of
 * custom fields, relationships, computed fields or data-dependent filters changed, which each
 * process learns on its next request after the write (the definitions follow the write
 * generation: dynamic-defs.ts).
 */
export async function currentSchema(services: Services, generation?: Promise<string | null>): Promise<GraphQLSchema> {
  const defs = await loadDynamicDefs(services, generation);
  const kept = built.get(services);
  if (kept && kept.fingerprint === defs.fingerprint) return kept.schema;
  const schema = buildSchema(services, defs);
  assertValidSchema(schema);
  built.set(services, { fingerprint: defs.fingerprint, schema });
  return schema;
}
