import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countStatements, create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;

/** Statements executed by one GET (the response cache is bypassed). */
const countQueries = (url: string): Promise<number> => countStatements(t, url);

before(async () => {
  t = await makeApp({ maxPageSize: 1000 });
  await create(t, '/api/dcim/location-types/', { name: 'Campus', nestable: true, content_types: ['dcim.location'] });
  await create(t, '/api/extras/custom-fields/', { label: 'Owner', type: 'text', default: 'ops', content_types: ['dcim.location', 'tenancy.tenant'] });
  const tenants = await create(t, '/api/tenancy/tenants/', Array.from({ length: 20 }, (_, i) => ({ name: `tenant-${i}` })));
  await create(t, '/api/extras/relationships/', { label: 'Served by', type: 'many-to-many', source_type: 'dcim.location', destination_type: 'tenancy.tenant' });
  await create(t, '/api/extras/relationships/', { label: 'Peers', type: 'symmetric-many-to-many', source_type: 'dcim.location', destination_type: 'dcim.location' });
  await create(t, '/api/extras/relationships/', { label: 'Only roots', type: 'one-to-many', source_type: 'dcim.location', destination_type: 'tenancy.tenant', source_filter: { name__isw: 'loc-1' } });
  await create(t, '/api/extras/computed-fields/', { label: 'Loud', content_type: 'dcim.location', template: '{{ obj.name | upper }} in {{ obj.status.name }} for {{ obj.tenant.name }}' });
  await create(t, '/api/extras/computed-fields/', { label: 'Owner line', content_type: 'dcim.location', template: 'owner {{ obj.cf.owner }}' });
  const batch = Array.from({ length: 1000 }, (_, i) => ({
    name: `loc-${i}`, location_type: 'Campus', status: 'Active', tenant: tenants[i % 20].id,
    relationships: { served_by: { destination: { objects: [tenants[i % 20].id, tenants[(i + 1) % 20].id] } } },
  }));
  await create(t, '/api/dcim/locations/', batch);
});
after(() => t.close());

describe('GET /api/dcim/locations/?include=relationships,computed_fields query count', () => {
  it('should cost the same statements for 1000 objects as for 10', async () => {
    for (const depth of [0, 1]) {
      const url = `/api/dcim/locations/?include=relationships,computed_fields&depth=${depth}`;
      const small = await countQueries(`${url}&limit=10`);
      const large = await countQueries(`${url}&limit=1000`);
      assert.ok(large <= small, `depth ${depth}: limit=10 took ${small} statements, limit=1000 took ${large}`);
      assert.ok(large < 40, `depth ${depth}: a page should cost a small fixed number of statements, got ${large}`);
    }
  });

  it('should render the blocks of the whole page', async () => {
    const res = await t.call('GET', '/api/dcim/locations/?include=relationships,computed_fields&limit=1000');
    const last = res.body.results.find((r: { name: string }) => r.name === 'loc-999');
    assert.equal(last.relationships.served_by.destination.objects.length, 2);
    assert.equal(last.computed_fields.loud, 'LOC-999 in Active for tenant-19');
    assert.equal(last.computed_fields.owner_line, 'owner ops');
    assert.ok(res.body.results.find((r: { name: string }) => r.name === 'loc-10').relationships.only_roots);
    assert.equal(last.relationships.only_roots, undefined);
  });
});

describe('GET /api/extras/tags/ query count', () => {
  it('should count tagged items of every model in one statement and sum them', async () => {
    const tag = await create(t, '/api/extras/tags/', { name: 'counted', content_types: ['dcim.location', 'tenancy.tenant', 'ipam.vlan'] });
    const locations = (await t.call('GET', '/api/dcim/locations/?limit=3')).body.results;
    const tenants = (await t.call('GET', '/api/tenancy/tenants/?limit=2')).body.results;
    await t.call('PATCH', '/api/dcim/locations/', locations.map((l: { id: string }) => ({ id: l.id, tags: [tag.id] })));
    await t.call('PATCH', '/api/tenancy/tenants/', tenants.map((x: { id: string }) => ({ id: x.id, tags: [tag.id] })));
    const res = await t.call('GET', '/api/extras/tags/?name=counted');
    assert.equal(res.body.results[0].tagged_items, 5);
    // count + page + content types + one statement for every model's tag links.
    assert.ok(await countQueries('/api/extras/tags/') <= 5, 'the tag list should not cost a statement per tagged model');
  });
});
