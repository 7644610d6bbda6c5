import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
const ids: Record<string, string> = {};

async function gql(query: string, variables?: Record<string, unknown>) {
  const res = await t.call('POST', '/api/graphql/', { query, variables });
  assert.equal(res.status, 200, res.raw);
  assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
  return res.body.data;
}

before(async () => {
  t = await makeApp();
  const site = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
  const [ams, nyc] = await create(t, '/api/dcim/locations/', [{ name: 'ams', location_type: site.id, status: 'Active' }, { name: 'nyc', location_type: site.id, status: 'Active' }]);
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Arista' });
  const model = await create(t, '/api/dcim/device-types/', { model: 'DCS-7280', manufacturer: maker.id });
  const [edge, core] = await create(t, '/api/extras/roles/', [{ name: 'edge', content_types: ['dcim.device'] }, { name: 'core', content_types: ['dcim.device'] }]);
  const eos = await create(t, '/api/dcim/platforms/', { name: 'eos', napalm_driver: 'eos', network_driver: 'arista_eos' });
  await create(t, '/api/extras/custom-fields/', [
    { label: 'Site code', key: 'site_code', type: 'text', content_types: ['dcim.device'] },
    { label: 'Rack units', key: 'rack_units', type: 'integer', content_types: ['dcim.device'] },
  ]);
  const devices = await create(t, '/api/dcim/devices/', [
    { name: 'ams-edge-01', device_type: model.id, role: edge.id, location: ams.id, status: 'Active', platform: eos.id, custom_fields: { site_code: 'AMS1', rack_units: 2 }, local_config_context_data: { ntp: ['10.0.0.1'] } },
    { name: 'ams-edge-02', device_type: model.id, role: edge.id, location: ams.id, status: 'Active' },
    { name: 'ams-core-01', device_type: model.id, role: core.id, location: ams.id, status: 'Active' },
    { name: 'nyc-edge-01', device_type: model.id, role: edge.id, location: nyc.id, status: 'Active' },
  ]);
  for (const d of devices) ids[d.name] = d.id;
  const ifaces = await create(t, '/api/dcim/interfaces/', [
    { device: devices[0].id, name: 'Ethernet1/1', type: '1000base-t', status: 'Active', mode: 'access', description: 'uplink' },
    { device: devices[0].id, name: 'Ethernet1/2', type: '1000base-t', status: 'Active' },
    { device: devices[0].id, name: 'Management1', type: '1000base-t', status: 'Active', mgmt_only: true },
    { device: devices[1].id, name: 'Ethernet1/1', type: '1000base-t', status: 'Active' },
  ]);
  for (const i of ifaces) ids[`${i.device.id === devices[0].id ? 'ams-edge-01' : 'ams-edge-02'}:${i.name}`] = i.id;
  const namespace = (await t.call('GET', '/api/ipam/namespaces/?name=Global')).body.results[0].id;
  await create(t, '/api/ipam/prefixes/', { prefix: '10.52.0.0/16', namespace, status: 'Active' });
  const [a, b] = await create(t, '/api/ipam/ip-addresses/', [{ address: '10.52.0.1/30', namespace, status: 'Active' }, { address: '10.52.1.1/24', namespace, status: 'Active' }]);
  await create(t, '/api/ipam/ip-address-to-interface/', [{ ip_address: a.id, interface: ifaces[0].id }, { ip_address: b.id, interface: ifaces[2].id }]);
  await t.call('PATCH', `/api/dcim/devices/${devices[0].id}/`, { primary_ip4: b.id });
  await create(t, '/api/extras/config-contexts/', { name: 'ntp-ams', weight: 100, data: { ntp: ['10.0.0.9'], dns: '1.1.1.1' }, locations: [ams.id] });
  const rel = await create(t, '/api/extras/relationships/', { label: 'Peers', key: 'peer_devices', type: 'symmetric-many-to-many', source_type: 'dcim.device', destination_type: 'dcim.device' });
  await create(t, '/api/extras/relationship-associations/', { relationship: rel.id, source_type: 'dcim.device', source_id: devices[0].id, destination_type: 'dcim.device', destination_id: devices[3].id });
  const owner = await create(t, '/api/extras/relationships/', { label: 'Platform owner', key: 'platform_device', type: 'one-to-many', source_type: 'dcim.platform', destination_type: 'dcim.device' });
  await create(t, '/api/extras/relationship-associations/', { relationship: owner.id, source_type: 'dcim.platform', source_id: eos.id, destination_type: 'dcim.device', destination_id: devices[1].id });
  await create(t, '/api/extras/computed-fields/', { content_type: 'dcim.device', key: 'fqdn', label: 'FQDN', template: '{{ obj.name }}.example.net' });
});
after(() => t.close());

describe('GraphQL: the queries of the reference\'s user guide', () => {
  it('should list device names, their interfaces and the interfaces\' addresses', async () => {
    const data = await gql('query { devices(location: "ams", role: "edge") { name interfaces { name description mgmt_only ip_addresses { address } } } }');
    assert.deepEqual(data.devices, [
      { name: 'ams-edge-01', interfaces: [
        { name: 'Ethernet1/1', description: 'uplink', mgmt_only: false, ip_addresses: [{ address: '10.52.0.1/30' }] },
        { name: 'Ethernet1/2', description: '', mgmt_only: false, ip_addresses: [] },
        { name: 'Management1', description: '', mgmt_only: true, ip_addresses: [{ address: '10.52.1.1/24' }] },
      ] },
      { name: 'ams-edge-02', interfaces: [{ name: 'Ethernet1/1', description: '', mgmt_only: false, ip_addresses: [] }] },
    ]);
  });

  it('should filter at every level (lists, lookups, reverse relations)', async () => {
    const data = await gql('query { locations(name: "ams") { devices(role: "edge") { name interfaces(name: "Ethernet1/1") { name } } } devices(name__ic: "EDGE", name__isw: "ams") { name } n: devices(name__n: ["ams-edge-01", "ams-edge-02"]) { name } }');
    assert.deepEqual(data.locations, [{ devices: [{ name: 'ams-edge-01', interfaces: [{ name: 'Ethernet1/1' }] }, { name: 'ams-edge-02', interfaces: [{ name: 'Ethernet1/1' }] }] }]);
    assert.deepEqual(data.devices.map((d: { name: string }) => d.name), ['ams-edge-01', 'ams-edge-02']);
    assert.deepEqual(data.n.map((d: { name: string }) => d.name), ['ams-core-01', 'nyc-edge-01']);
  });

  it('should take variables typed as the filters are', async () => {
    const data = await gql('query ($location_name: [String]) { devices(location: $location_name) { name } }', { location_name: 'nyc' });
    assert.deepEqual(data.devices, [{ name: 'nyc-edge-01' }]);
  });

  it('should page lists with limit and offset, at the top and per parent in nested lists', async () => {
    const data = await gql('query { devices(location: "ams", limit: 1, offset: 1) { name } all: devices(limit: 0) { name } d: device(id: "' + ids['ams-edge-01'] + '") { interfaces(limit: 2, offset: 1) { name } } }');
    assert.deepEqual(data.devices, [{ name: 'ams-edge-01' }]);
    assert.equal(data.all.length, 4);
    assert.deepEqual(data.d.interfaces, [{ name: 'Ethernet1/2' }, { name: 'Management1' }]);
    const negative = await t.call('POST', '/api/graphql/', { query: '{ devices(limit: -1) { name } }' });
    assert.deepEqual(negative.body.errors.map((e: { message: string }) => e.message), ['Negative indexing is not supported.']);
  });

  it('should read one object by id, null for none', async () => {
    const data = await gql(`query ($id: ID!) { device(id: $id) { name platform { name napalm_driver network_driver } primary_ip4 { host address } primary_ip { address } } none: device { name } }`, { id: ids['ams-edge-01'] });
    assert.deepEqual(data.device, { name: 'ams-edge-01', platform: { name: 'eos', napalm_driver: 'eos', network_driver: 'arista_eos' }, primary_ip4: { host: '10.52.1.1', address: '10.52.1.1/24' }, primary_ip: { address: '10.52.1.1/24' } });
    assert.equal(data.none, null);
  });

  it('should show custom fields as cf_<key> and _custom_field_data', async () => {
    const data = await gql('{ devices(cf_site_code: "AMS1") { name cf_site_code cf_rack_units _custom_field_data } }');
    assert.deepEqual(data.devices, [{ name: 'ams-edge-01', cf_site_code: 'AMS1', cf_rack_units: 2, _custom_field_data: { site_code: 'AMS1', rack_units: 2 } }]);
  });

  it('should show relationships as rel_<key> (a list or one object by the relationship\'s type)', async () => {
    const data = await gql('{ devices(name: ["ams-edge-01", "ams-edge-02", "nyc-edge-01"]) { name rel_peer_devices { name } rel_platform_device { name } } platforms { name rel_platform_device { name } } }');
    assert.deepEqual(data.devices, [
      { name: 'ams-edge-01', rel_peer_devices: [{ name: 'nyc-edge-01' }], rel_platform_device: null },
      { name: 'ams-edge-02', rel_peer_devices: [], rel_platform_device: { name: 'eos' } },
      { name: 'nyc-edge-01', rel_peer_devices: [{ name: 'ams-edge-01' }], rel_platform_device: null },
    ]);
    assert.deepEqual(data.platforms, [{ name: 'eos', rel_platform_device: [{ name: 'ams-edge-02' }] }]);
  });

  it('should show computed fields as cpf_<key> and the merged config context', async () => {
    const data = await gql(`{ device(id: "${ids['ams-edge-01']}") { cpf_fqdn config_context } devices(location: "nyc") { config_context } }`);
    assert.deepEqual(data.device, { cpf_fqdn: 'ams-edge-01.example.net', config_context: { ntp: ['10.0.0.1'], dns: '1.1.1.1' } });
    assert.deepEqual(data.devices, [{ config_context: {} }]);
  });

  it('should read what fragments and aliases ask for in nested lists', async () => {
    const data = await gql(`query { device(id: "${ids['ams-edge-01']}") { a: interfaces(name: "Ethernet1/1") { ...names } b: interfaces(name: "Management1") { __typename ... on InterfaceType { mgmt_only ip_addresses { address } } } } } fragment names on InterfaceType { name label description }`);
    assert.deepEqual(data.device, { a: [{ name: 'Ethernet1/1', label: '', description: 'uplink' }], b: [{ __typename: 'InterfaceType', mgmt_only: true, ip_addresses: [{ address: '10.52.1.1/24' }] }] });
  });

  it('should render choice fields as the reference\'s enum names and blank choices as null', async () => {
    const data = await gql(`{ device(id: "${ids['ams-edge-01']}") { face interfaces { type mode } } }`);
    assert.equal(data.device.face, null);
    assert.deepEqual(data.device.interfaces[0], { type: 'A_1000BASE_T', mode: 'ACCESS' });
    assert.deepEqual(data.device.interfaces[1], { type: 'A_1000BASE_T', mode: null });
  });

  it('should follow the data: a new custom field, relationship or computed field is queryable at once', async () => {
    const before = await t.call('POST', '/api/graphql/', { query: '{ devices { cf_owner } }' });
    assert.equal(before.status, 400);
    await create(t, '/api/extras/custom-fields/', { label: 'Owner', key: 'owner', type: 'text', content_types: ['dcim.device'] });
    await t.call('PATCH', `/api/dcim/devices/${ids['ams-core-01']}/`, { custom_fields: { owner: 'noc' } });
    const data = await gql('{ devices(cf_owner: "noc") { name cf_owner } }');
    assert.deepEqual(data.devices, [{ name: 'ams-core-01', cf_owner: 'noc' }]);
  });
});
