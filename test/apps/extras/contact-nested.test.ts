import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let team: any;
let association: any;

before(async () => {
  t = await makeApp();
  team = await create(t, '/api/extras/teams/', { name: 'noc' });
  const contact = await create(t, '/api/extras/contacts/', { name: 'c1', teams: [team.id] });
  await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.location'] });
  const site = await create(t, '/api/dcim/locations/', { name: 'site-a', location_type: 'Site', status: 'Active' });
  await create(t, '/api/extras/roles/', { name: 'owner', content_types: ['extras.contactassociation'] });
  association = await create(t, '/api/extras/contact-associations/', { contact: contact.id, associated_object_type: 'dcim.location', associated_object_id: site.id, role: 'owner', status: 'Active' });
});
after(() => t.close());

describe('GET /api/extras/contact-associations/ nested contact', () => {
  it('should render the contact\'s teams inside the nested contact at depth 1, as the reference does', async () => {
    const got = (await t.call('GET', `/api/extras/contact-associations/${association.id}/?depth=1`)).body;
    assert.deepEqual(got.contact.teams.map((x: any) => x.id), [team.id]);
    assert.deepEqual(Object.keys(got.contact).slice(-2), ['custom_fields', 'teams']);
    assert.equal(got.contact.tags, undefined);
  });

  it('should render teams after tags at the top level, in the reference order', async () => {
    const got = (await t.call('GET', `/api/extras/contacts/?name=c1`)).body.results[0];
    assert.deepEqual(Object.keys(got).slice(-3), ['custom_fields', 'tags', 'teams']);
  });
});
