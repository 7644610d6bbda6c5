import { create } from '../helpers/app.js';
import { USED, each, site } from './dcim-fixtures.js';
import type { Ctx } from './dcim-fixtures.js';
import type { Fixture } from './fixtures.js';
import type { TestApp } from '../helpers/app.js';

/** A provider and a circuit type. */
async function provider(t: TestApp): Promise<Ctx> {
  const made = await create(t, '/api/circuits/providers/', { name: 'fx-isp' });
  return { provider: made.id, type: (await create(t, '/api/circuits/circuit-types/', { name: 'fx-transit' })).id };
}

/** A site and one circuit per `i`, so that each termination (one per circuit side) is new. */
async function circuits(t: TestApp): Promise<Ctx> {
  const [where, ours] = [await site(t), await provider(t)];
  return { ...where, ...await each(t, '/api/circuits/circuits/', USED, (i) => ({ cid: `c-${i}`, provider: ours.provider, circuit_type: ours.type, status: 'Active' }), 'circuit') };
}

/** Contract fixtures for the circuits models. */
export const CIRCUIT_FIXTURES: Fixture[] = [
  { model: 'circuits.provider', path: '/api/circuits/providers/', make: (i) => ({ name: `provider-${i}`, asn: 64500 + i, account: `desc ${i}` }), text: 'account' },
  { model: 'circuits.circuittype', path: '/api/circuits/circuit-types/', make: (i) => ({ name: `ctype-${i}`, description: `desc ${i}` }), text: 'description' },
  {
    model: 'circuits.providernetwork',
    path: '/api/circuits/provider-networks/',
    setup: provider,
    make: (i, ctx) => ({ name: `pnet-${i}`, provider: ctx.provider, description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'circuits.circuit',
    path: '/api/circuits/circuits/',
    setup: provider,
    make: (i, ctx) => ({ cid: `cid-${i}`, provider: ctx.provider, circuit_type: ctx.type, status: 'Active', commit_rate: 1000 * i, description: `desc ${i}` }),
    text: 'description',
  },
  {
    model: 'circuits.circuittermination',
    path: '/api/circuits/circuit-terminations/',
    setup: circuits,
    make: (i, ctx) => ({ circuit: ctx[`circuit${i}`], term_side: 'A', location: ctx.location, port_speed: 1000, description: `desc ${i}` }),
    text: 'description',
  },
];
