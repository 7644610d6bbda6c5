import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
const w: Record<string, any> = {};

before(async () => {
  t = await makeApp();
  w.aws = await create(t, '/api/dcim/manufacturers/', { name: 'AWS' });
  w.account = await create(t, '/api/cloud/cloud-accounts/', { name: 'prod', account_number: '1234', provider: 'AWS' });
  w.vpc = await create(t, '/api/cloud/cloud-resource-types/', { name: 'VPC', provider: w.aws.id, content_types: ['cloud.cloudnetwork'], config_schema: { type: 'object', properties: { cidr: { type: 'string' } }, required: ['cidr'] } });
  w.net = await create(t, '/api/cloud/cloud-networks/', { name: 'vpc-1', cloud_account: w.account.id, cloud_resource_type: w.vpc.id, extra_config: { cidr: '10.0.0.0/16' } });
  await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.controller'] });
  const site = await create(t, '/api/dcim/locations/', { name: 's1', location_type: 'Site', status: 'Active' });
  const controller = await create(t, '/api/dcim/controllers/', { name: 'wlc', location: site.id, status: 'Active' });
  w.group = await create(t, '/api/dcim/controller-managed-device-groups/', { name: 'aps', controller: controller.id });
});
after(() => t.close());

describe('cloud app', () => {
  // pynautobot: nb.cloud.cloud_accounts.get(name="prod") sends ?name=prod and reads the one result.
  it('should answer pynautobot-shaped reads with the reference display', async () => {
    const res = await t.call('GET', '/api/cloud/cloud-accounts/?name=prod', undefined, { headers: { accept: 'application/json;' } });
    assert.equal(res.body.count, 1);
    assert.equal(res.body.results[0].display, 'AWS: prod - 1234');
    assert.equal((await t.call('GET', `/api/dcim/manufacturers/${w.aws.id}/`)).body.cloud_account_count, 1);
  });

  it('should check extra_config against the resource type schema and only allow its content types', async () => {
    assertRefused(await t.call('POST', '/api/cloud/cloud-networks/', { name: 'bad', cloud_account: w.account.id, cloud_resource_type: w.vpc.id, extra_config: {} }), 400, { extra_config: ['Validation according to CloudResourceType VPC config_schema failed.', "must have required property 'cidr'"] });
    const res = await t.call('POST', '/api/cloud/cloud-services/', { name: 'svc', cloud_resource_type: w.vpc.id });
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body), ['cloud_resource_type']);
  });

  it('should nest cloud networks one level only', async () => {
    const child = await create(t, '/api/cloud/cloud-networks/', { name: 'subnet-1', cloud_account: w.account.id, cloud_resource_type: w.vpc.id, parent: w.net.id, extra_config: { cidr: '10.0.1.0/24' } });
    assertRefused(await t.call('POST', '/api/cloud/cloud-networks/', { name: 'deep', cloud_account: w.account.id, cloud_resource_type: w.vpc.id, parent: child.id, extra_config: { cidr: 'x' } }), 400, { parent: ['A CloudNetwork may not be the child of a CloudNetwork that itself has a parent.'] });
  });

  it('should list prefixes of a cloud network from its assignments and filter by them', async () => {
    const prefix = await create(t, '/api/ipam/prefixes/', { prefix: '10.0.0.0/16', status: 'Active' });
    await create(t, '/api/cloud/cloud-network-prefix-assignments/', { cloud_network: w.net.id, prefix: prefix.id });
    assert.deepEqual((await t.call('GET', `/api/cloud/cloud-networks/${w.net.id}/`)).body.prefixes.map((p: any) => p.id), [prefix.id]);
    assert.equal((await t.call('GET', `/api/cloud/cloud-networks/?prefixes=${prefix.id}`)).body.count, 1);
  });

  it('should terminate a circuit on a cloud network', async () => {
    await create(t, '/api/circuits/providers/', { name: 'isp' });
    await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
    const circuit = await create(t, '/api/circuits/circuits/', { cid: 'c1', provider: { name: 'isp' }, circuit_type: { name: 'transit' }, status: 'Active' });
    const term = await create(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', cloud_network: w.net.id });
    assert.equal(term.display, 'Termination A: vpc-1');
    assert.equal(term.cloud_network.id, w.net.id);
  });

  it('should offer cloud models in content type choices', async () => {
    const options = await t.call('OPTIONS', '/api/extras/dynamic-groups/');
    const values = options.body.actions.POST.content_type.choices.map((c: any) => c.value);
    for (const m of ['cloud.cloudaccount', 'cloud.cloudnetwork', 'wireless.radioprofile']) assert.ok(values.includes(m), m);
    assert.equal(values.includes('cloud.cloudnetworkprefixassignment'), false);
  });
});

describe('wireless app', () => {
  it('should show radio profiles and wireless networks on controller-managed device groups', async () => {
    const rp = await create(t, '/api/wireless/radio-profiles/', { name: 'rp', regulatory_domain: 'US', channel_width: [20, 40] });
    const wn = await create(t, '/api/wireless/wireless-networks/', { name: 'corp', ssid: 'corp', mode: 'Central', authentication: 'WPA2 Personal' });
    await create(t, '/api/wireless/controller-managed-device-group-radio-profile-assignments/', { controller_managed_device_group: w.group.id, radio_profile: rp.id });
    await create(t, '/api/wireless/controller-managed-device-group-wireless-network-assignments/', { controller_managed_device_group: w.group.id, wireless_network: wn.id });
    const group = (await t.call('GET', `/api/dcim/controller-managed-device-groups/${w.group.id}/`)).body;
    assert.deepEqual([group.radio_profiles.map((r: any) => r.id), group.wireless_networks.map((n: any) => n.id)], [[rp.id], [wn.id]]);
    assert.equal((await t.call('GET', '/api/wireless/wireless-networks/?controller_managed_device_groups=aps')).body.count, 1);
    assert.equal((await t.call('GET', '/api/wireless/radio-profiles/?has_controller_managed_device_groups=false')).body.count, 0);
  });

  it('should refuse channel widths outside the choices', async () => {
    assertRefused(await t.call('POST', '/api/wireless/radio-profiles/', { name: 'bad', regulatory_domain: 'US', channel_width: [30] }), 400, { channel_width: ['"30" is not a valid choice.'] });
  });
});

describe("cloud and wireless filters on other apps' models", () => {
  it('should filter devices, controllers and device groups by radio profiles and wireless networks', async () => {
    const manufacturer = await create(t, '/api/dcim/manufacturers/', { name: 'Aruba' });
    const type = await create(t, '/api/dcim/device-types/', { model: 'AP-515', manufacturer: manufacturer.id });
    const role = await create(t, '/api/extras/roles/', { name: 'AP', content_types: ['dcim.device'] });
    const siteType = (await t.call('GET', '/api/dcim/location-types/?name=Site')).body.results[0];
    await t.call('PATCH', `/api/dcim/location-types/${siteType.id}/`, { content_types: ['dcim.controller', 'dcim.device'] });
    const common = { device_type: type.id, role: role.id, location: { name: 's1' }, status: 'Active' };
    const grouped = await create(t, '/api/dcim/devices/', { name: 'ap1', controller_managed_device_group: w.group.id, ...common });
    const loose = await create(t, '/api/dcim/devices/', { name: 'ap2', ...common });
    const ids = async (url: string) => (await t.call('GET', url)).body.results.map((r: any) => r.id);
    assert.deepEqual(await ids('/api/dcim/devices/?radio_profiles=rp'), [grouped.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?wireless_networks=corp&has_radio_profiles=true'), [grouped.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?has_wireless_networks=false'), [loose.id]);
    assert.equal((await t.call('GET', '/api/dcim/controllers/?wireless_networks=corp')).body.count, 1);
    assert.deepEqual(await ids('/api/dcim/controller-managed-device-groups/?has_radio_profiles=true&has_wireless_networks=true'), [w.group.id]);
    assert.equal((await t.call('GET', '/api/dcim/controller-managed-device-groups/?has_radio_profiles=false')).body.count, 0);
  });

  it('should filter circuits and prefixes by cloud network', async () => {
    assert.deepEqual((await t.call('GET', '/api/circuits/circuits/?cloud_network=vpc-1')).body.results.map((c: any) => c.cid), ['c1']);
    assert.deepEqual((await t.call('GET', `/api/ipam/prefixes/?cloud_networks=${w.net.id}`)).body.results.map((p: any) => p.prefix), ['10.0.0.0/16']);
  });
});
