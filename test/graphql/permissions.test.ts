import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { makeUser } from '../helpers/users.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/users.js';

let t: TestApp;
let constrained: TestUser;
let nobody: TestUser;
const names = (list: { name: string }[]) => list.map((o) => o.name);

before(async () => {
  t = await makeApp();
  const campus = await create(t, '/api/dcim/location-types/', { name: 'Campus', content_types: ['dcim.rack', 'dcim.device'] });
  const [one, two] = await create(t, '/api/dcim/locations/', [{ name: 'Location 1', location_type: campus.id, status: 'Active' }, { name: 'Location 2', location_type: campus.id, status: 'Active' }]);
  await create(t, '/api/dcim/racks/', [['Rack 1-1', one], ['Rack 1-2', one], ['Rack 2-1', two], ['Rack 2-2', two]].map(([name, loc]) => ({ name, location: loc.id, status: 'Active' })));
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  const model = await create(t, '/api/dcim/device-types/', { model: 'X1', manufacturer: maker.id });
  const role = await create(t, '/api/extras/roles/', { name: 'leaf', content_types: ['dcim.device'] });
  await create(t, '/api/extras/tags/', [{ name: 'public', content_types: ['dcim.device'] }, { name: 'secret', content_types: ['dcim.device'] }]);
  const devices = await create(t, '/api/dcim/devices/', [one, two].map((loc, i) => ({ name: `dev-${i + 1}`, device_type: model.id, role: role.id, location: loc.id, status: 'Active', tags: ['public', 'secret'] })));
  await create(t, '/api/dcim/interfaces/', devices.flatMap((d: { id: string }) => ['eth0', 'mgmt0'].map((name) => ({ device: d.id, name, type: '1000base-t', status: 'Active' }))));
  constrained = await makeUser(t, 'constrained', [
    { object_types: ['dcim.location'], actions: ['view'], constraints: { name: 'Location 1' } },
    { object_types: ['dcim.rack'], actions: ['view'], constraints: { location__name: 'Location 1' } },
    { object_types: ['dcim.device'], actions: ['view'] },
    { object_types: ['dcim.interface'], actions: ['view'], constraints: { name__startswith: 'eth' } },
    { object_types: ['extras.tag'], actions: ['view'], constraints: { name: 'public' } },
  ]);
  nobody = await makeUser(t, 'nobody');
});
after(() => t.close());

const query = (user: TestUser, q: string) => user.call('POST', '/api/graphql/', { query: q });

describe('GraphQL object permissions', () => {
  it('should list what the REST list shows the user, at the top and in nested lists', async () => {
    const res = await query(constrained, '{ locations { name racks { name } } racks { name } }');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, { locations: [{ name: 'Location 1', racks: [{ name: 'Rack 1-1' }, { name: 'Rack 1-2' }] }], racks: [{ name: 'Rack 1-1' }, { name: 'Rack 1-2' }] });
    const rest = await constrained.call('GET', '/api/dcim/racks/');
    assert.deepEqual(names(rest.body.results), names(res.body.data.racks));
  });

  it('should leave hidden objects out of nested lists of visible objects (reverse and many-to-many)', async () => {
    const res = await query(constrained, '{ devices { name interfaces { name } tags { name } location { name } } }');
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.data.devices.map((d: { name: string; interfaces: { name: string }[]; tags: { name: string }[] }) => [d.name, names(d.interfaces), names(d.tags)]), [
      ['dev-1', ['eth0'], ['public']],
      ['dev-2', ['eth0'], ['public']],
    ]);
    for (const device of res.body.data.devices) {
      const rest = await constrained.call('GET', `/api/dcim/interfaces/?device=${device.name}`);
      assert.deepEqual(names(rest.body.results), names(device.interfaces));
    }
  });

  it('should nest a related object as a REST response does, whether or not its list would show it', async () => {
    const res = await query(constrained, '{ devices(name: "dev-2") { location { name } } }');
    const rest = await constrained.call('GET', '/api/dcim/devices/?name=dev-2&depth=1');
    assert.equal(res.body.data.devices[0].location.name, rest.body.results[0].location.name);
    assert.equal(res.body.data.devices[0].location.name, 'Location 2');
  });

  it('should answer a user without any grant with empty lists and null objects, not an error', async () => {
    const rack = (await t.call('GET', '/api/dcim/racks/?name=Rack 2-1')).body.results[0];
    const res = await query(nobody, `{ racks { name } locations { name } rack(id: "${rack.id}") { name } }`);
    assert.deepEqual([res.status, res.body], [200, { data: { racks: [], locations: [], rack: null } }]);
    const hidden = await query(constrained, `{ rack(id: "${rack.id}") { name } }`);
    assert.deepEqual(hidden.body, { data: { rack: null } });
  });

  it('should show everything to a user exempt from view permissions', async () => {
    const exempt = await makeApp({ exemptViewPermissions: ['*'] });
    try {
      const type = await create(exempt, '/api/dcim/location-types/', { name: 'Site' });
      await create(exempt, '/api/dcim/locations/', { name: 'Somewhere', location_type: type.id, status: 'Active' });
      const user = await makeUser(exempt, 'plain');
      const res = await user.call('POST', '/api/graphql/', { query: '{ locations { name } }' });
      assert.deepEqual(res.body, { data: { locations: [{ name: 'Somewhere' }] } });
    } finally {
      await exempt.close();
    }
  });
});
