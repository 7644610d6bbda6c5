import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { makeEach, prepareSubjects } from './fixtures.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let rel: Record<string, any> = {};
let a: Record<string, any>;
let b: Record<string, any>;

const REL = '/api/extras/relationships/';
const objectsOf = (body: any, key: string, side: string) => body.relationships[key][side].objects.map((o: { id: string }) => o.id).sort();

before(async () => {
  t = await makeApp();
  await prepareSubjects(t);
  rel.locTenant = await create(t, REL, { label: 'Loc Tenant', type: 'one-to-many', source_type: 'dcim.location', destination_type: 'tenancy.tenant' });
  rel.statusLoc = await create(t, REL, { label: 'Status Loc', type: 'many-to-many', source_type: 'extras.status', destination_type: 'dcim.location', source_label: 'Places' });
  rel.twins = await create(t, REL, { label: 'Twins', type: 'symmetric-many-to-many', source_type: 'tenancy.tenant', destination_type: 'tenancy.tenant' });
  a = await makeEach(t, 'a');
  b = await makeEach(t, 'b');
});
after(() => t.close());

describe('relationships block (API-SPEC "Relationship association block", api-behaviour 0 and 8)', () => {
  it('should render every applicable relationship, with name and label, only when included', async () => {
    const plain = await t.call('GET', `/api/dcim/locations/${a['dcim.location'].id}/`);
    assert.equal('relationships' in plain.body, false, 'opt-in: absent by default');
    const res = await t.call('GET', `/api/dcim/locations/${a['dcim.location'].id}/?include=relationships`);
    assert.deepEqual(res.body.relationships, {
      loc_tenant: { id: rel.locTenant.id, url: rel.locTenant.url, name: 'Loc Tenant', label: 'Loc Tenant', type: 'one-to-many', destination: { label: 'tenants', object_type: 'tenancy.tenant', objects: [] } },
      status_loc: { id: rel.statusLoc.id, url: rel.statusLoc.url, name: 'Status Loc', label: 'Status Loc', type: 'many-to-many', source: { label: 'statuses', object_type: 'extras.status', objects: [] } },
    });
    const status = await t.call('GET', `/api/extras/statuses/${a['extras.status'].id}/?include=relationships`);
    assert.deepEqual(status.body.relationships.status_loc.destination, { label: 'Places', object_type: 'dcim.location', objects: [] });
    const tenant = await t.call('GET', `/api/tenancy/tenants/?include=relationships&name=a`);
    assert.deepEqual(Object.keys(tenant.body.results[0].relationships).sort(), ['loc_tenant', 'twins']);
    assert.equal(tenant.body.results[0].relationships.twins.peer.object_type, 'tenancy.tenant');
  });

  it('should write associations through the relationships key and show them on both ends', async () => {
    const loc = a['dcim.location'];
    const res = await t.call('PATCH', `/api/dcim/locations/${loc.id}/`, { relationships: { loc_tenant: { destination: { objects: [a['tenancy.tenant'].id, { name: 'b' }] } } } });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(objectsOf(res.body, 'loc_tenant', 'destination'), [a['tenancy.tenant'].id, b['tenancy.tenant'].id].sort(), 'write responses carry the opt-in keys');
    const obj = res.body.relationships.loc_tenant.destination.objects[0];
    assert.deepEqual(Object.keys(obj), ['id', 'object_type', 'url']);
    const tenant = await t.call('GET', `/api/tenancy/tenants/${b['tenancy.tenant'].id}/?include=relationships`);
    assert.deepEqual(objectsOf(tenant.body, 'loc_tenant', 'source'), [loc.id]);
    assert.equal(tenant.body.relationships.loc_tenant.source.label, 'location');
    const deep = await t.call('GET', `/api/tenancy/tenants/${b['tenancy.tenant'].id}/?include=relationships&depth=1`);
    assert.equal(deep.body.relationships.loc_tenant.source.objects[0].name, 'a', 'depth 1 nests the related objects');
  });

  it('should replace exactly the given keys and sides and keep the others', async () => {
    // "A relationship key left out keeps its associations unchanged; a key given replaces that relationship's associations."
    const loc = a['dcim.location'];
    await t.call('PATCH', `/api/extras/statuses/${a['extras.status'].id}/`, { relationships: { status_loc: { destination: { objects: [loc.id] } } } });
    const res = await t.call('PATCH', `/api/dcim/locations/${loc.id}/`, { relationships: { loc_tenant: { destination: { objects: [b['tenancy.tenant'].id] } } } });
    assert.deepEqual(objectsOf(res.body, 'loc_tenant', 'destination'), [b['tenancy.tenant'].id]);
    assert.deepEqual(objectsOf(res.body, 'status_loc', 'source'), [a['extras.status'].id], 'a key left out is unchanged');
    const unchanged = await t.call('PATCH', `/api/dcim/locations/${loc.id}/`, { description: 'no relationships key' });
    assert.deepEqual(objectsOf(unchanged.body, 'loc_tenant', 'destination'), [b['tenancy.tenant'].id]);
    const cleared = await t.call('PATCH', `/api/dcim/locations/${loc.id}/`, { relationships: { loc_tenant: { destination: { objects: [] } } } });
    assert.deepEqual(objectsOf(cleared.body, 'loc_tenant', 'destination'), [], '[] deletes the associations');
    const created = await t.call('POST', '/api/dcim/locations/', { name: 'c', location_type: 'Campus', status: 'Active', relationships: { status_loc: { source: { objects: [b['extras.status'].id] } } } });
    assert.equal(created.status, 201, created.raw);
    assert.deepEqual(objectsOf(created.body, 'status_loc', 'source'), [b['extras.status'].id]);
  });

  it('should link symmetric peers both ways', async () => {
    const [x, y] = [a['tenancy.tenant'], b['tenancy.tenant']];
    const res = await t.call('PATCH', `/api/tenancy/tenants/${x.id}/`, { relationships: { twins: { peer: { objects: [y.id] } } } });
    assert.deepEqual(objectsOf(res.body, 'twins', 'peer'), [y.id]);
    const other = await t.call('GET', `/api/tenancy/tenants/${y.id}/?include=relationships`);
    assert.deepEqual(objectsOf(other.body, 'twins', 'peer'), [x.id]);
    const self = await t.call('PATCH', `/api/tenancy/tenants/${x.id}/`, { relationships: { twins: { peer: { objects: [x.id] } } } });
    assertRefused(self, 400, { relationships: ['An object cannot form a RelationshipAssociation with itself'] });
  });

  it('should refuse unknown keys, wrong sides and malformed objects as the reference words them', async () => {
    const url = `/api/dcim/locations/${b['dcim.location'].id}/`;
    const cases: [unknown, string][] = [
      [{ loc_tenant: { source: { objects: [] } } }, '"source" is not a valid side for "Loc Tenant" on dcim.Location'],
      [{ bogus: { destination: { objects: [] } } }, '"bogus" is not a relationship on dcim.Location'],
      [{ loc_tenant: { destination: {} } }, '"objects" must be specified under ["loc_tenant"]["destination"] when present'],
      [{ loc_tenant: { destination: { objects: 'x' } } }, '"objects" must be a list, not a single value'],
      [{ loc_tenant: { destination: { objects: ['00000000-0000-4000-8000-000000000000'] } } }, "Related object not found using the provided attributes: {'pk': UUID('00000000-0000-4000-8000-000000000000')}"],
    ];
    for (const [relationships, message] of cases) {
      const res = await t.call('PATCH', url, { relationships });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { relationships: [message] });
    }
  });
});

describe('relationship association display', () => {
  it('is made of both ends\' displays, rows behind them included, on the list and the detail at depth 0', async () => {
    const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Display Maker' });
    const type = await create(t, '/api/dcim/device-types/', { model: 'DM-1', manufacturer: maker.id });
    assert.match(type.display, /Display Maker/, 'a device type\'s display names its manufacturer, a row behind it');
    const relationship = await create(t, REL, { label: 'Loc Type', type: 'one-to-many', source_type: 'dcim.location', destination_type: 'dcim.devicetype' });
    const made = await create(t, '/api/extras/relationship-associations/', { relationship: relationship.id, source_type: 'dcim.location', source_id: a['dcim.location'].id, destination_type: 'dcim.devicetype', destination_id: type.id });
    const expected = `${a['dcim.location'].display} -> ${type.display} - Loc Type`;
    assert.equal(made.display, expected);
    const headers = { 'cache-control': 'no-cache' };
    const detail = await t.call('GET', `/api/extras/relationship-associations/${made.id}/`, undefined, { headers });
    assert.equal(detail.body.display, expected);
    const list = await t.call('GET', `/api/extras/relationship-associations/?relationship=${relationship.id}`, undefined, { headers });
    assert.equal(list.body.results[0].display, expected);
  });
});
