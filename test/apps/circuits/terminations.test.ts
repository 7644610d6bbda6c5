import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { migrate } from '../../../src/db/schema/migrate.js';
import { assertRefused, countOf } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let site: any;
let network: any;
let circuit: any;
let moved: any;
const TERMINATIONS = '/api/circuits/circuit-terminations/';

before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['circuits.circuittermination'] });
  site = await create(t, '/api/dcim/locations/', { name: 'DC1', location_type: type.id, status: 'Active' });
  const provider = await create(t, '/api/circuits/providers/', { name: 'isp' });
  network = await create(t, '/api/circuits/provider-networks/', { name: 'backbone', provider: provider.id });
  const circuitType = await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
  circuit = await create(t, '/api/circuits/circuits/', { cid: 'C-1', provider: provider.id, circuit_type: circuitType.id, status: 'Active' });
});
after(() => t.close());

describe('circuit termination attachment', () => {
  it('should refuse a termination attached to nothing, as the reference', async () => {
    const before = await countOf(t, TERMINATIONS);
    const res = await t.call('POST', TERMINATIONS, { circuit: circuit.id, term_side: 'A' });
    assertRefused(res, 400, { __all__: ['A circuit termination must attach to a location, a provider network or a cloud network.'] });
    assert.equal(await countOf(t, TERMINATIONS), before);
  });

  it('should refuse a termination attached to both a location and a provider network', async () => {
    const res = await t.call('POST', TERMINATIONS, { circuit: circuit.id, term_side: 'A', location: site.id, provider_network: network.id });
    assertRefused(res, 400, { __all__: ['A circuit termination cannot attach to both a location and a provider network.'] });
  });

  it('should refuse a PATCH that takes the only attachment away', async () => {
    const made = await create(t, TERMINATIONS, { circuit: circuit.id, term_side: 'Z', provider_network: network.id });
    const res = await t.call('PATCH', `${TERMINATIONS}${made.id}/`, { provider_network: null });
    assertRefused(res, 400, { __all__: ['A circuit termination must attach to a location, a provider network or a cloud network.'] });
    await t.call('DELETE', `${TERMINATIONS}${made.id}/`);
  });
});

describe('circuit_termination_a and _z', () => {
  const sides = async () => {
    const got = (await t.call('GET', `/api/circuits/circuits/${circuit.id}/`)).body;
    return [got.circuit_termination_a?.id ?? null, got.circuit_termination_z?.id ?? null];
  };

  it('should name the terminations of each side on the circuit, and follow moves and deletes', async () => {
    assert.deepEqual(await sides(), [null, null]);
    const a = await create(t, TERMINATIONS, { circuit: circuit.id, term_side: 'A', location: site.id });
    const z = await create(t, TERMINATIONS, { circuit: circuit.id, term_side: 'Z', provider_network: network.id });
    assert.deepEqual(await sides(), [a.id, z.id]);
    const depth1 = (await t.call('GET', `/api/circuits/circuits/${circuit.id}/?depth=1`)).body;
    assert.equal(depth1.circuit_termination_a.location.id, site.id);
    assert.equal((await t.call('DELETE', `${TERMINATIONS}${z.id}/`)).status, 204);
    assert.deepEqual(await sides(), [a.id, null]);
    assert.equal((await t.call('PATCH', `${TERMINATIONS}${a.id}/`, { term_side: 'Z' })).status, 200);
    assert.deepEqual(await sides(), [null, a.id]);
    moved = a;
  });

  it('should record the circuit as changed by the request that wrote its termination', async () => {
    const changes = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${circuit.id}`)).body.results;
    const newest = changes[0];
    assert.equal(newest.action.value, 'update');
    assert.equal(newest.object_data_v2.circuit_termination_a, null);
    assert.equal(newest.object_data_v2.circuit_termination_z.id, moved.id);
  });
});

describe('migration 8: circuit terminations named on their circuits', () => {
  it('should fill the sides of circuits an older build left empty', async () => {
    const { dialect, registry } = t.app.services;
    const model = registry.get('circuits.circuit');
    await dialect.db.updateTable(model.table).set({ circuit_termination_a_id: null, circuit_termination_z_id: null }).execute();
    await dialect.db.deleteFrom('inventory_migrations').where('id', '=', 8).execute();
    await migrate(dialect, registry);
    const got = (await t.call('GET', `/api/circuits/circuits/${circuit.id}/`)).body;
    assert.equal(got.circuit_termination_a, null);
    assert.equal(got.circuit_termination_z.id, moved.id);
  });
});
