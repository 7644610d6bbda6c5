import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { makeEach, prepareSubjects } from './fixtures.js';
import { KEY_NOT_IDENTIFIER, assertRefused, countOf } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let a: Record<string, any>;
let b: Record<string, any>;
const REL = '/api/extras/relationships/';
const ids = (res: any) => res.body.results.map((r: { name: string }) => r.name).sort();

before(async () => {
  t = await makeApp();
  await prepareSubjects(t);
  a = await makeEach(t, 'a');
  b = await makeEach(t, 'b');
});
after(() => t.close());

describe('relationship cardinality (catalogue relationshipassociation rules)', () => {
  it('should let a one-to-many destination have one source only', async () => {
    await create(t, REL, { label: 'Owner', key: 'owner', type: 'one-to-many', source_type: 'tenancy.tenant', destination_type: 'dcim.location' });
    const two = await t.call('PATCH', `/api/dcim/locations/${a['dcim.location'].id}/`, { relationships: { owner: { source: { objects: [a['tenancy.tenant'].id, b['tenancy.tenant'].id] } } } });
    assertRefused(two, 400, { relationships: ['For "Owner", "source" objects must include at most a single object'] });
    await t.call('PATCH', `/api/tenancy/tenants/${a['tenancy.tenant'].id}/`, { relationships: { owner: { destination: { objects: [a['dcim.location'].id] } } } });
    const taken = await t.call('PATCH', `/api/tenancy/tenants/${b['tenancy.tenant'].id}/`, { relationships: { owner: { destination: { objects: [a['dcim.location'].id] } } } });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { relationships: ['Unable to create more than one Owner association to a (destination)'] });
    const moved = await t.call('PATCH', `/api/dcim/locations/${a['dcim.location'].id}/`, { relationships: { owner: { source: { objects: [b['tenancy.tenant'].id] } } } });
    assert.equal(moved.status, 200, 'replacing the side removes the old association first');
  });

  it('should let each end of a one-to-one and each peer of a symmetric one-to-one appear once', async () => {
    await create(t, REL, { label: 'Primary', type: 'one-to-one', source_type: 'extras.status', destination_type: 'tenancy.tenant' });
    await t.call('PATCH', `/api/extras/statuses/${a['extras.status'].id}/`, { relationships: { primary: { destination: { objects: [a['tenancy.tenant'].id] } } } });
    const again = await t.call('PATCH', `/api/tenancy/tenants/${b['tenancy.tenant'].id}/`, { relationships: { primary: { source: { objects: [a['extras.status'].id] } } } });
    assertRefused(again, 400, { relationships: ['Unable to create more than one Primary association from a (source)'] });
    await create(t, REL, { label: 'Mate', type: 'symmetric-one-to-one', source_type: 'dcim.location', destination_type: 'dcim.location' });
    const c = await create(t, '/api/dcim/locations/', { name: 'c', location_type: 'Campus', status: 'Active', relationships: { mate: { peer: { objects: [a['dcim.location'].id] } } } });
    const clash = await t.call('PATCH', `/api/dcim/locations/${b['dcim.location'].id}/`, { relationships: { mate: { peer: { objects: [a['dcim.location'].id] } } } });
    assert.equal(clash.status, 400);
    assert.match(clash.body.relationships[0], /Unable to create more than one Mate association involving a \(peer\)|Unable to create more than one Mate association to a \(destination\)/);
    assert.equal((await t.call('GET', `/api/dcim/locations/${c.id}/?include=relationships`)).body.relationships.mate.peer.objects[0].id, a['dcim.location'].id);
  });
});

describe('relationship definitions', () => {
  it('should derive the key, check symmetric sides and refuse a required symmetric relationship', async () => {
    const r = await create(t, REL, { label: 'Backup Site-Pair', type: 'symmetric-many-to-many', source_type: 'dcim.location', destination_type: 'dcim.location', destination_label: 'Pairs' });
    assert.equal(r.key, 'backup_site_pair');
    assert.equal(r.source_label, 'Pairs', 'a blank side label is filled from the other');
    const before = await countOf(t, REL);
    const mixed = await t.call('POST', REL, { label: 'Mixed', type: 'symmetric-one-to-one', source_type: 'dcim.location', destination_type: 'tenancy.tenant', required_on: 'source' });
    assertRefused(mixed, 400, { destination_type: ['Must match source_type for a symmetric relationship'], required_on: ['Symmetric relationships cannot be marked as required.'] });
    const badKey = await t.call('POST', REL, { label: 'k', key: 'has space', source_type: 'dcim.location', destination_type: 'tenancy.tenant' });
    assertRefused(badKey, 400, { key: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'] });
    const badFilter = await t.call('POST', REL, { label: 'f', source_type: 'dcim.location', destination_type: 'tenancy.tenant', source_filter: { flavour: 'x' } });
    assertRefused(badFilter, 400, { source_filter: ["'flavour' is not a valid filter parameter for dcim.Location object"] });
    assert.equal(await countOf(t, REL), before, 'no refused relationship is written');
  });

  it('should refuse a key that is a slug but not an identifier, and write nothing', async () => {
    const before = await countOf(t, REL);
    for (const key of ['has-hyphen', '9lives']) {
      const res = await t.call('POST', REL, { label: 'k', key, source_type: 'dcim.location', destination_type: 'tenancy.tenant' });
      assertRefused(res, 400, { key: [KEY_NOT_IDENTIFIER] }, key);
    }
    assert.equal(await countOf(t, REL), before);
  });

  it('should not change the type while associations exist', async () => {
    const r = (await t.call('GET', `${REL}?key=owner`)).body.results[0];
    const res = await t.call('PATCH', `${REL}${r.id}/`, { type: 'many-to-many' });
    assert.equal(res.status, 400);
    assert.match(res.body.__all__[0], /^Not supported to change the type of the relationship/);
  });
});

describe('required_on, filters, hidden and cleanup', () => {
  it('should require a peer on the required side, and accept updates that keep existing associations', async () => {
    await create(t, REL, { label: 'Billing', type: 'one-to-many', source_type: 'tenancy.tenant', destination_type: 'extras.status', required_on: 'destination' });
    const res = await t.call('POST', '/api/extras/statuses/', { name: 'needs-billing', content_types: ['dcim.location'] });
    assertRefused(res, 400, { relationships: { billing: ['You need to specify ["relationships"]["billing"]["source"]["objects"].'] } });
    const ok = await create(t, '/api/extras/statuses/', { name: 'billed', content_types: ['dcim.location'], relationships: { billing: { source: { objects: [a['tenancy.tenant'].id] } } } });
    assert.equal((await t.call('PATCH', `/api/extras/statuses/${ok.id}/`, { description: 'still billed' })).status, 200);
    const cleared = await t.call('PATCH', `/api/extras/statuses/${ok.id}/`, { relationships: { billing: { source: { objects: [] } } } });
    assertRefused(cleared, 400, { relationships: { billing: ['You need to specify ["relationships"]["billing"]["source"]["objects"].'] } });
    await t.call('DELETE', `${REL}${(await t.call('GET', `${REL}?key=billing`)).body.results[0].id}/`);
  });

  it('should apply a side filter to the block and to new associations', async () => {
    await create(t, REL, { label: 'Named A', type: 'many-to-many', source_type: 'dcim.location', destination_type: 'tenancy.tenant', source_filter: { name: ['a'] } });
    const list = await t.call('GET', '/api/dcim/locations/?include=relationships&name=a&name=b');
    const byName = Object.fromEntries(list.body.results.map((r: any) => [r.name, r.relationships]));
    assert.ok(byName.a.named_a);
    assert.equal(byName.b.named_a, undefined, 'b does not match the source filter');
    const res = await t.call('PATCH', `/api/tenancy/tenants/${a['tenancy.tenant'].id}/`, { relationships: { named_a: { source: { objects: [b['dcim.location'].id] } } } });
    assertRefused(res, 400, { relationships: ['b violates Named A source_filter restriction'] });
  });

  it('should filter by cr_<key>__<side> and hide the filter of a hidden side', async () => {
    // api-behaviour 7: "Relationship filters: cr_<relationship_key>__source|destination|peer=<uuid>"
    await create(t, REL, { label: 'Uses', type: 'many-to-many', source_type: 'dcim.location', destination_type: 'tenancy.tenant', destination_hidden: true });
    await t.call('PATCH', `/api/dcim/locations/${a['dcim.location'].id}/`, { relationships: { uses: { destination: { objects: [a['tenancy.tenant'].id, b['tenancy.tenant'].id] } } } });
    assert.deepEqual(ids(await t.call('GET', `/api/dcim/locations/?cr_uses__destination=${b['tenancy.tenant'].id}`)), ['a']);
    assert.deepEqual(ids(await t.call('GET', `/api/dcim/locations/?cr_uses__destination=${b['tenancy.tenant'].id}&cr_uses__destination=${a['tenancy.tenant'].id}`)), ['a']);
    assertRefused(await t.call('GET', `/api/tenancy/tenants/?cr_uses__source=${a['dcim.location'].id}`), 400, { cr_uses__source: ['Unknown filter field'] }, 'hidden on the destination: no filter there');
    assertRefused(await t.call('GET', '/api/dcim/locations/?cr_uses__source=x'), 400, { cr_uses__source: ['Unknown filter field'] }, 'wrong side');
    const hidden = await t.call('GET', `/api/tenancy/tenants/${a['tenancy.tenant'].id}/?include=relationships`);
    assert.ok(hidden.body.relationships.uses, 'hidden relationships still render in the API (include_hidden)');
  });

  it('should delete an object\'s associations with it', async () => {
    const before = (await t.call('GET', '/api/extras/relationship-associations/?limit=1000')).body.count;
    const doomed = await create(t, '/api/tenancy/tenants/', { name: 'doomed', relationships: { uses: { source: { objects: [b['dcim.location'].id] } } } });
    assert.equal((await t.call('GET', '/api/extras/relationship-associations/')).body.count, before + 1);
    assert.equal((await t.call('DELETE', `/api/tenancy/tenants/${doomed.id}/`)).status, 204);
    assert.equal((await t.call('GET', '/api/extras/relationship-associations/')).body.count, before);
  });

  it('should check associations created directly', async () => {
    const uses = (await t.call('GET', `${REL}?key=uses`)).body.results[0];
    const wrong = await t.call('POST', '/api/extras/relationship-associations/', { relationship: uses.id, source_type: 'tenancy.tenant', source_id: a['tenancy.tenant'].id, destination_type: 'tenancy.tenant', destination_id: b['tenancy.tenant'].id });
    assertRefused(wrong, 400, { source_type: ['source_type has a different value than defined in Uses'] });
    const ok = await create(t, '/api/extras/relationship-associations/', { relationship: uses.id, source_type: 'dcim.location', source_id: b['dcim.location'].id, destination_type: 'tenancy.tenant', destination_id: a['tenancy.tenant'].id });
    assert.equal(ok.display, 'b -> a - Uses');
    const peers = await t.call('GET', `/api/extras/relationship-associations/?peer_id=${b['dcim.location'].id}&relationship=uses`);
    assert.deepEqual(peers.body.results.map((r: { id: string }) => r.id), [ok.id]);
  });
});
