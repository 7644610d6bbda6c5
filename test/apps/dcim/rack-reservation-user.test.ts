import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { makeUser } from '../../helpers/users.js';
import { makeDcimBase } from './dcim-setup.js';
import type { TestApp } from '../../helpers/app.js';
import type { TestUser } from '../../helpers/users.js';
import type { DcimBase } from './dcim-setup.js';

const PATH = '/api/dcim/rack-reservations/';

let t: TestApp;
let base: DcimBase;
let admin: { id: string };
let clerk: TestUser;
let other: { id: string };
let unit = 0;
let rack: { id: string };

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  rack = await create(t, '/api/dcim/racks/', { name: 'Tall', location: base.site.id, status: 'Active', u_height: 100 });
  admin = (await t.call('GET', '/api/users/users/?username=admin')).body.results[0];
  other = await create(t, '/api/users/users/', { username: 'other-owner' });
  // No permission on users: the reference looks users up unrestricted, so the clerk may still name one.
  clerk = await makeUser(t, 'clerk', [
    { object_types: ['dcim.rackreservation'], actions: ['view', 'add', 'change'] },
    { object_types: ['dcim.rack'], actions: ['view'] },
  ]);
});
after(() => t.close());

/** A reservation body on a unit of its own (units may not overlap). */
const body = (extra: Record<string, unknown> = {}) => ({ rack: rack.id, units: [++unit], description: 'held', ...extra });

describe('POST /api/dcim/rack-reservations/ user', () => {
  it('should make the requesting user the owner when none is given', async () => {
    assert.equal((await create(t, PATH, body())).user.id, admin.id);
    const res = await clerk.call('POST', PATH, body());
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.user.id, clerk.id);
  });

  it('should take a given user as given, by the owner\'s id or username', async () => {
    assert.equal((await create(t, PATH, body({ user: other.id }))).user.id, other.id);
    assert.equal((await create(t, PATH, body({ user: { username: 'other-owner' } }))).user.id, other.id);
    const res = await clerk.call('POST', PATH, body({ user: admin.id }));
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.user.id, admin.id);
  });

  it('should refuse a null user', async () => {
    const res = await t.call('POST', PATH, body({ user: null }));
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { user: ['This field may not be null.'] });
  });

  it('should fill every object of a bulk create and of a CSV import', async () => {
    const res = await clerk.call('POST', PATH, [body(), body({ user: other.id })]);
    assert.equal(res.status, 201, res.raw);
    assert.deepEqual(res.body.map((r: { user: { id: string } }) => r.user.id), [clerk.id, other.id]);
    const csv = await t.call('POST', PATH, `rack,units,description\n${rack.id},[${++unit}],from csv\n`, { headers: { 'content-type': 'text/csv' } });
    assert.equal(csv.status, 201, csv.raw);
    assert.equal(csv.body[0].user.id, admin.id);
  });
});

describe('PUT and PATCH /api/dcim/rack-reservations/<id>/ user', () => {
  it('should keep the stored user on a PATCH without one and take a given one', async () => {
    const made = await create(t, PATH, body({ user: other.id }));
    const patched = await clerk.call('PATCH', `${PATH}${made.id}/`, { description: 'patched' });
    assert.equal(patched.status, 200, patched.raw);
    assert.equal(patched.body.user.id, other.id);
    const given = await t.call('PATCH', `${PATH}${made.id}/`, { user: clerk.id });
    assert.equal(given.body.user.id, clerk.id);
  });

  it('should give the reservation to the requesting user on a PUT without one', async () => {
    const made = await create(t, PATH, body({ user: other.id }));
    const res = await clerk.call('PUT', `${PATH}${made.id}/`, { rack: rack.id, units: made.units, description: 'replaced' });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.user.id, clerk.id);
    const kept = await t.call('PUT', `${PATH}${made.id}/`, { rack: rack.id, units: made.units, description: 'again', user: other.id });
    assert.equal(kept.body.user.id, other.id);
  });

  it('should do the same per object in a bulk PUT and PATCH', async () => {
    const [a, b] = [await create(t, PATH, body({ user: other.id })), await create(t, PATH, body({ user: other.id }))];
    const put = await t.call('PUT', PATH, [{ id: a.id, rack: rack.id, units: a.units, description: 'bulk' }, { id: b.id, rack: rack.id, units: b.units, description: 'bulk', user: other.id }]);
    assert.equal(put.status, 200, put.raw);
    assert.deepEqual(put.body.map((r: { user: { id: string } }) => r.user.id), [admin.id, other.id]);
    const patch = await clerk.call('PATCH', PATH, [{ id: b.id, description: 'bulk patch' }]);
    assert.equal(patch.status, 200, patch.raw);
    assert.equal(patch.body[0].user.id, other.id);
  });
});
