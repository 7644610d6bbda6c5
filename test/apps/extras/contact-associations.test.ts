import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused, countOf } from '../../helpers/refusals.js';
import { makeUser } from '../../helpers/users.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let role: any;
let site: any;
let hidden: any;
let contact: any;
let team: any;
const PATH = '/api/extras/contact-associations/';
const MISSING = '00000000-0000-4000-8000-000000000000';

before(async () => {
  t = await makeApp();
  role = await create(t, '/api/extras/roles/', { name: 'owner', content_types: ['extras.contactassociation'] });
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site' });
  site = await create(t, '/api/dcim/locations/', { name: 'DC1', location_type: type.id, status: 'Active' });
  hidden = await create(t, '/api/dcim/locations/', { name: 'Secret', location_type: type.id, status: 'Active' });
  contact = await create(t, '/api/extras/contacts/', { name: 'alice', email: 'alice@example.com' });
  team = await create(t, '/api/extras/teams/', { name: 'noc' });
});
after(() => t.close());

const body = (extra: Record<string, unknown>) => ({ associated_object_type: 'dcim.location', associated_object_id: site.id, role: role.id, status: 'Active', ...extra });

describe('contact association display', () => {
  it('should name the contact or team and the associated object, in lists and details', async () => {
    const made = await create(t, PATH, body({ contact: contact.id }));
    assert.equal(made.display, 'Contact alice (alice@example.com) for DC1');
    const byTeam = await create(t, PATH, body({ team: team.id }));
    const listed = (await t.call('GET', PATH)).body.results.map((r: any) => r.display).sort();
    assert.deepEqual(listed, ['Contact alice (alice@example.com) for DC1', 'Team contact noc for DC1']);
    assert.equal((await t.call('GET', `${PATH}${byTeam.id}/`)).body.display, 'Team contact noc for DC1');
  });
});

describe('contact association checks', () => {
  it('should refuse an association to an object that does not exist, writing nothing', async () => {
    const count = await countOf(t, PATH);
    assertRefused(await t.call('POST', PATH, body({ contact: contact.id, associated_object_id: MISSING })), 400, { associated_object_id: ['Object not found'] });
    assert.equal(await countOf(t, PATH), count);
  });

  it('should refuse moving an association to a missing object, and name the item of a bulk create', async () => {
    const made = await create(t, PATH, body({ contact: contact.id, role: (await create(t, '/api/extras/roles/', { name: 'billing', content_types: ['extras.contactassociation'] })).id }));
    assertRefused(await t.call('PATCH', `${PATH}${made.id}/`, { associated_object_id: MISSING }), 400, { associated_object_id: ['Object not found'] });
    const bulk = await t.call('POST', PATH, [body({ team: team.id, associated_object_id: hidden.id }), body({ team: team.id, associated_object_id: MISSING })]);
    assertRefused(bulk, 400, [{}, { associated_object_id: ['Object not found'] }]);
  });

  it('should refuse an association to an object the user may not view', async () => {
    const user = await makeUser(t, 'limited', [
      { object_types: ['extras.contactassociation'], actions: ['view', 'add'] },
      { object_types: ['dcim.location'], actions: ['view'], constraints: { name: 'DC1' } },
      { object_types: ['extras.contact', 'extras.role', 'extras.status'], actions: ['view'] },
    ]);
    assertRefused(await user.call('POST', PATH, body({ contact: contact.id, associated_object_id: hidden.id })), 400, { associated_object_id: ['Object not found'] });
  });

  it('should require exactly one of a contact and a team', async () => {
    assertRefused(await t.call('POST', PATH, body({})), 400, { __all__: ['Either a contact or a team must be specified'] });
    assertRefused(await t.call('POST', PATH, body({ contact: contact.id, team: team.id, associated_object_id: hidden.id, role: (await create(t, '/api/extras/roles/', { name: 'other', content_types: ['extras.contactassociation'] })).id })), 400, { __all__: ['A contact and a team cannot be both specified at once'] });
  });

  it('should name a duplicate in the order of the reference\'s validator', async () => {
    assertRefused(await t.call('POST', PATH, body({ contact: contact.id })), 400, { non_field_errors: ['The fields associated_object_type, associated_object_id, contact, role must make a unique set.'] });
    assertRefused(await t.call('POST', PATH, body({ team: team.id })), 400, { non_field_errors: ['The fields associated_object_type, associated_object_id, team, role must make a unique set.'] });
  });

  it('should refuse a note on an object that does not exist (every generic relation is checked)', async () => {
    assertRefused(await t.call('POST', '/api/extras/notes/', { assigned_object_type: 'dcim.location', assigned_object_id: MISSING, note: 'x' }), 400, { assigned_object_id: ['Object not found'] });
  });
});
