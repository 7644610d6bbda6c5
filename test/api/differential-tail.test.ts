/**
 * Differences the differential replay (../shared/reference/differential) found and that are
 * fixed: content types in the reference's order, OPTIONS details, to-many fields backed by
 * assignment models, both ends of the team-contact relation, deletable job results.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let site: any;
let device: any;
before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  site = await create(t, '/api/dcim/locations/', { name: 'S1', location_type: type.id, status: 'Active' });
  const manufacturer = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  const deviceType = await create(t, '/api/dcim/device-types/', { model: 'Box', manufacturer: manufacturer.id });
  const role = await create(t, '/api/extras/roles/', { name: 'Leaf', content_types: ['dcim.device'] });
  device = await create(t, '/api/dcim/devices/', { name: 'd1', device_type: deviceType.id, role: role.id, location: site.id, status: 'Active' });
});
after(() => t.close());

const choicesOf = async (path: string, field: string) => (await t.call('OPTIONS', path)).body.actions.POST[field].choices as { value: string; display: string }[];

describe('content types as the reference orders them', () => {
  it('should list content-type choices by display, upper case first', async () => {
    const values = (await choicesOf('/api/extras/computed-fields/', 'content_type')).map((c) => c.value);
    assert.ok(values.indexOf('extras.gitrepository') < values.indexOf('extras.configcontextschema'));
    assert.ok(values.indexOf('ipam.vlan') < values.indexOf('ipam.namespace'));
  });

  it("should offer every content type of the reference for a note's object type, by its own app label", async () => {
    const choices = await choicesOf('/api/extras/notes/', 'assigned_object_type');
    assert.equal(choices.length, 165);
    assert.deepEqual(choices.slice(0, 3).map((c) => c.display), ['admin | log entry', 'aggregate', 'auth | group']);
  });

  it("should list a tag's content types in the reference's id order", async () => {
    const tag = await create(t, '/api/extras/tags/', { name: 'gold', content_types: ['dcim.location', 'dcim.device', 'ipam.prefix', 'ipam.ipaddress'] });
    assert.deepEqual(tag.content_types, ['dcim.device', 'ipam.ipaddress', 'ipam.prefix', 'dcim.location']);
    assert.deepEqual((await t.call('GET', `/api/extras/tags/${tag.id}/`)).body.content_types, tag.content_types);
  });
});

describe('OPTIONS details', () => {
  it('should write 64-bit integer limits exactly', async () => {
    const raw = (await t.call('OPTIONS', '/api/extras/custom-fields/')).raw;
    assert.match(raw, /"min_value":-9223372036854775808,"max_value":9223372036854775807/);
  });

  it('should describe the members of list fields and leave choices off an owner content type', async () => {
    const post = (await t.call('OPTIONS', '/api/dcim/controllers/')).body.actions.POST;
    assert.deepEqual(post.capabilities.child, { type: 'field', required: false, read_only: false, choices: [{ value: 'wireless', display: 'Wireless' }] });
    assert.equal((await t.call('OPTIONS', '/api/ipam/services/')).body.actions.POST.ports.child.max_value, 65535);
    assert.equal((await t.call('OPTIONS', '/api/dcim/devices/')).body.actions.POST.local_config_context_data_owner_content_type.choices, undefined);
  });
});

describe('to-many fields backed by assignment models', () => {
  it('should list a secrets group’s assignments as its secrets', async () => {
    const group = await create(t, '/api/extras/secrets-groups/', { name: 'sg' });
    const secret = await create(t, '/api/extras/secrets/', { name: 's', provider: 'environment-variable', parameters: { variable: 'X' } });
    const assoc = await create(t, '/api/extras/secrets-groups-associations/', { secrets_group: group.id, secret: secret.id, access_type: 'Generic', secret_type: 'secret' });
    const got = (await t.call('GET', `/api/extras/secrets-groups/${group.id}/`)).body;
    assert.deepEqual(got.secrets.map((s: any) => [s.id, s.object_type]), [[assoc.id, 'extras.secretsgroupassociation']]);
    await t.call('DELETE', `/api/extras/secrets-groups-associations/${assoc.id}/`);
    assert.deepEqual((await t.call('GET', `/api/extras/secrets-groups/${group.id}/`)).body.secrets, []);
  });

  it('should list the interfaces assigned to a virtual device context', async () => {
    const iface = await create(t, '/api/dcim/interfaces/', { device: device.id, name: 'eth9', type: 'virtual', status: 'Active' });
    const vdc = await create(t, '/api/dcim/virtual-device-contexts/', { name: 'vdc', device: device.id, status: 'Active', identifier: 1 });
    await create(t, '/api/dcim/interface-vdc-assignments/', { virtual_device_context: vdc.id, interface: iface.id });
    assert.deepEqual((await t.call('GET', `/api/dcim/virtual-device-contexts/${vdc.id}/`)).body.interfaces.map((i: any) => i.id), [iface.id]);
  });

  it('should render the nested to-many fields of objects behind a to-many link (a VRF’s prefixes’ vrfs)', async () => {
    const vrf = await create(t, '/api/ipam/vrfs/', { name: 'blue' });
    const prefix = await create(t, '/api/ipam/prefixes/', { prefix: '10.9.0.0/24', status: 'Active' });
    await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: vrf.id, prefix: prefix.id });
    const got = (await t.call('GET', `/api/ipam/vrfs/${vrf.id}/?depth=1`)).body;
    assert.deepEqual(got.prefixes[0].vrfs.map((v: any) => v.id), [vrf.id]);
  });
});

describe('team contacts and contact teams are one relation', () => {
  it('should show a team written with contacts on the contacts, and the other way round', async () => {
    const c1 = await create(t, '/api/extras/contacts/', { name: 'c1' });
    const c2 = await create(t, '/api/extras/contacts/', { name: 'c2' });
    const team = await create(t, '/api/extras/teams/', { name: 't1', contacts: [c1.id] });
    assert.deepEqual((await t.call('GET', `/api/extras/contacts/${c1.id}/`)).body.teams.map((x: any) => x.id), [team.id]);
    assert.equal((await t.call('PATCH', `/api/extras/contacts/${c2.id}/`, { teams: [team.id] })).status, 200);
    const members = (await t.call('GET', `/api/extras/teams/${team.id}/`)).body.contacts.map((x: any) => x.id).sort();
    assert.deepEqual(members, [c1.id, c2.id].sort());
    await t.call('PATCH', `/api/extras/teams/${team.id}/`, { contacts: [c2.id] });
    assert.deepEqual((await t.call('GET', `/api/extras/contacts/${c1.id}/`)).body.teams, []);
  });
});

describe('job results and scheduled jobs', () => {
  it('should allow DELETE on their list and detail paths', async () => {
    for (const path of ['/api/extras/job-results/', '/api/extras/scheduled-jobs/']) {
      assert.equal((await t.call('GET', path)).headers.allow, 'GET, DELETE, HEAD, OPTIONS');
      assert.equal((await t.call('POST', path, {})).status, 405);
    }
  });
});

describe('smaller differences', () => {
  it('should accept a webhook to a public IPv4 address and refuse the metadata address', async () => {
    const ok = await t.call('POST', '/api/extras/webhooks/', { name: 'wh', content_types: ['dcim.device'], type_create: true, payload_url: 'http://1.0.0.1/hook' });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const refused = await t.call('POST', '/api/extras/webhooks/', { name: 'wh2', content_types: ['dcim.device'], type_create: true, payload_url: 'http://169.254.169.254/' });
    assert.equal(refused.status, 400);
  });

  it("should give a VRF-device assignment without a name its VRF's name and route distinguisher", async () => {
    const vrf = await create(t, '/api/ipam/vrfs/', { name: 'red', rd: '65000:1' });
    const assignment = await create(t, '/api/ipam/vrf-device-assignments/', { vrf: vrf.id, device: device.id });
    assert.deepEqual([assignment.name, assignment.rd], ['red', '65000:1']);
  });

  it('should list config in the users API root', async () => {
    assert.deepEqual(Object.keys((await t.call('GET', '/api/users/')).body), ['config', 'groups', 'permissions', 'tokens', 'users']);
  });
});

describe('protected delete', () => {
  it('should name a dependent tree object by its own name, as the reference prints it', async () => {
    const region = await create(t, '/api/dcim/location-types/', { name: 'Region' });
    const room = await create(t, '/api/dcim/location-types/', { name: 'Room', parent: region.id });
    const parent = await create(t, '/api/dcim/locations/', { name: 'P', location_type: region.id, status: 'Active' });
    const child = await create(t, '/api/dcim/locations/', { name: 'C', location_type: room.id, status: 'Active', parent: parent.id });
    const res = await t.call('DELETE', `/api/dcim/location-types/${room.id}/`);
    assert.equal(res.status, 409);
    assert.equal(res.body.detail, `Unable to delete object. 1 dependent objects were found: C (${child.id})`);
  });
});

describe('more wire details', () => {
  it("should word a JSON syntax error as the reference's parser does", async () => {
    const res = await t.call('POST', '/api/dcim/locations/', '{"name": ', { headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: 'JSON parse error - Expecting value: line 1 column 10 (char 9)' });
  });

  it('should record a change as "<app> | <model> <object> <action> by <user>", with path URLs in its snapshot and no id in its flat data', async () => {
    const type = await create(t, '/api/dcim/location-types/', { name: 'Campus' });
    const loc = await create(t, '/api/dcim/locations/', { name: 'L9', location_type: type.id, status: 'Active' });
    const [change] = (await t.call('GET', `/api/extras/object-changes/?changed_object_id=${loc.id}`)).body.results;
    assert.equal(change.display, 'dcim | location L9 created by admin');
    assert.equal(change.object_data.id, undefined);
    assert.equal(change.object_data_v2.url, `/api/dcim/locations/${loc.id}/`);
    assert.equal(change.object_data_v2.location_type.url, `/api/dcim/location-types/${type.id}/`);
  });

  it('should name the lookup column of a model without a natural key of its own `pk` in CSV', async () => {
    const res = await t.call('GET', '/api/ipam/prefixes/?format=csv');
    assert.ok(res.raw.split('\n')[0].split(',').includes('vlan__pk'), res.raw.split('\n')[0]);
  });
});

describe('CSV lookup columns', () => {
  it("should name a primary IP's namespace by the reference's path through its parent prefix", async () => {
    const ns = await create(t, '/api/ipam/namespaces/', { name: 'ns-csv' });
    await create(t, '/api/ipam/prefixes/', { prefix: '10.55.0.0/24', status: 'Active', namespace: ns.id });
    const ip = await create(t, '/api/ipam/ip-addresses/', { address: '10.55.0.1/24', status: 'Active', namespace: ns.id });
    const iface = await create(t, '/api/dcim/interfaces/', { device: device.id, name: 'mgmt0', type: 'virtual', status: 'Active' });
    await create(t, '/api/ipam/ip-address-to-interface/', { ip_address: ip.id, interface: iface.id });
    assert.equal((await t.call('PATCH', `/api/dcim/devices/${device.id}/`, { primary_ip4: ip.id })).status, 200);
    const [head, row] = (await t.call('GET', `/api/dcim/devices/?id=${device.id}&format=csv`)).raw.trim().split(/\r?\n/).map((l) => l.split(','));
    const at = head.indexOf('primary_ip4__parent__namespace__name');
    assert.ok(at >= 0, head.join(','));
    assert.equal(row[at], 'ns-csv');
    assert.equal(row[head.indexOf('primary_ip4__host')], '10.55.0.1');
  });

  it("should carry a prefix's VRFs in CSV as their ids, as the reference's serializer adds them", async () => {
    const vrf = await create(t, '/api/ipam/vrfs/', { name: 'csv-vrf' });
    const prefix = await create(t, '/api/ipam/prefixes/', { prefix: '10.66.0.0/24', status: 'Active' });
    await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: vrf.id, prefix: prefix.id });
    const [head, row] = (await t.call('GET', `/api/ipam/prefixes/?id=${prefix.id}&format=csv`)).raw.trim().split(/\r?\n/).map((l) => l.split(','));
    assert.equal(head[head.length - 1], 'vrfs');
    assert.equal(row[head.indexOf('vrfs')], vrf.id);
  });
});

describe('filters of fields that list assignments', () => {
  it('should filter secrets groups by secret and redundancy groups by interface, not by assignment', async () => {
    const group = await create(t, '/api/extras/secrets-groups/', { name: 'sg-filter' });
    const secret = await create(t, '/api/extras/secrets/', { name: 's-filter', provider: 'environment-variable', parameters: { variable: 'Y' } });
    await create(t, '/api/extras/secrets-groups-associations/', { secrets_group: group.id, secret: secret.id, access_type: 'Generic', secret_type: 'secret' });
    assert.deepEqual((await t.call('GET', `/api/extras/secrets-groups/?secrets=${secret.id}`)).body.results.map((g: any) => g.id), [group.id]);
    assert.deepEqual((await t.call('GET', '/api/extras/secrets-groups/?secrets=s-filter')).body.results.map((g: any) => g.id), [group.id]);
    const iface = await create(t, '/api/dcim/interfaces/', { device: device.id, name: 'irg0', type: 'virtual', status: 'Active' });
    const irg = await create(t, '/api/dcim/interface-redundancy-groups/', { name: 'irg-filter', protocol: 'hsrp', status: 'Active' });
    const assoc = await create(t, '/api/dcim/interface-redundancy-group-associations/', { interface_redundancy_group: irg.id, interface: iface.id, priority: 100 });
    const got = (await t.call('GET', `/api/dcim/interface-redundancy-groups/?interfaces=${iface.id}`)).body.results;
    assert.deepEqual(got.map((g: any) => g.id), [irg.id]);
    assert.deepEqual(got[0].interfaces.map((i: any) => [i.id, i.object_type]), [[assoc.id, 'dcim.interfaceredundancygroupassociation']]);
  });
});

describe('write responses after change records made without a base URL', () => {
  it('should render related objects of computed fields with absolute URLs, and reuse the rest', async () => {
    await create(t, '/api/ipam/prefixes/', { prefix: '192.0.2.0/24', status: 'Active' });
    await create(t, '/api/ipam/prefixes/', { prefix: '198.51.100.0/24', status: 'Active' });
    const inside = await create(t, '/api/ipam/ip-addresses/', { address: '192.0.2.10/32', status: 'Active', namespace: 'Global' });
    await create(t, '/api/ipam/ip-addresses/', { address: '198.51.100.10/32', status: 'Active', namespace: 'Global', nat_inside: inside.id });
    const res = await t.call('PATCH', `/api/ipam/ip-addresses/${inside.id}/`, { description: 'nat' });
    assert.equal(res.status, 200);
    assert.match(res.body.nat_outside_list[0].url, /^http:\/\/[^/]+\/api\/ipam\/ip-addresses\//);
    assert.equal(res.body.address, '192.0.2.10/32');
  });
});
