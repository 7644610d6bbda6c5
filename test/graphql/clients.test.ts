import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';

/**
 * The requests pynautobot 3 (`nb.graphql.query`, with the queries of Nautobot's GraphQL user guide)
 * and the Ansible collection's gql_inventory (default query, group_by, page_size, saved_query)
 * sent to a running server, captured on the wire, with the answers they got (ids masked). The
 * data below is what that server held; the clients themselves are not part of this repository.
 */
type Captured = { client: string; title: string; method: 'GET' | 'POST'; url: string; contentType: string | null; body: Record<string, unknown> | null; expect: { status: number; body?: unknown; query?: string } };
const CAPTURED: Captured[] = JSON.parse(readFileSync(new URL('./client-requests.json', import.meta.url), 'utf8'));
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

let t: TestApp;
const ids: Record<string, string> = {};

before(async () => {
  t = await makeApp();
  const site = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device', 'virtualization.cluster'] });
  const ams = await create(t, '/api/dcim/locations/', { name: 'ams', location_type: site.id, status: 'Active' });
  const nyc = await create(t, '/api/dcim/locations/', { name: 'nyc', location_type: site.id, status: 'Active' });
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Arista' });
  const model = await create(t, '/api/dcim/device-types/', { model: 'DCS-7280CR2-60', manufacturer: maker.id });
  const edge = await create(t, '/api/extras/roles/', { name: 'edge', content_types: ['dcim.device', 'virtualization.virtualmachine'] });
  const eos = await create(t, '/api/dcim/platforms/', { name: 'eos', napalm_driver: 'eos', network_driver: 'arista_eos' });
  await create(t, '/api/extras/custom-fields/', { label: 'Site code', key: 'site_code', type: 'text', content_types: ['dcim.device'] });
  const namespace = (await t.call('GET', '/api/ipam/namespaces/?name=Global')).body.results[0].id;
  await create(t, '/api/ipam/prefixes/', { prefix: '10.52.0.0/16', namespace, status: 'Active' });
  for (const [i, [name, location]] of ([['ams-edge-01', ams], ['ams-edge-02', ams], ['nyc-edge-01', nyc]] as const).entries()) {
    const device = await create(t, '/api/dcim/devices/', { name, device_type: model.id, role: edge.id, location: location.id, status: 'Active', platform: eos.id, custom_fields: { site_code: name.slice(0, 3).toUpperCase() }, local_config_context_data: { snmp: { community: `public-${i}` } } });
    ids[name] = device.id;
    for (const [j, ifname] of ['Ethernet1/1', 'Management1'].entries()) {
      const iface = await create(t, '/api/dcim/interfaces/', { device: device.id, name: ifname, type: '1000base-t', status: 'Active', mgmt_only: ifname === 'Management1' });
      const ip = await create(t, '/api/ipam/ip-addresses/', { address: `10.52.${i}.${j + 1}/24`, namespace, status: 'Active' });
      await create(t, '/api/ipam/ip-address-to-interface/', { ip_address: ip.id, interface: iface.id });
      if (ifname === 'Management1') await t.call('PATCH', `/api/dcim/devices/${device.id}/`, { primary_ip4: ip.id });
    }
  }
  await create(t, '/api/extras/config-contexts/', { name: 'ntp', weight: 100, data: { ntp: ['10.0.0.1'] } });
  const rel = await create(t, '/api/extras/relationships/', { label: 'Device peer', key: 'device_peer', type: 'symmetric-one-to-one', source_type: 'dcim.device', destination_type: 'dcim.device' });
  await create(t, '/api/extras/relationship-associations/', { relationship: rel.id, source_type: 'dcim.device', source_id: ids['ams-edge-01'], destination_type: 'dcim.device', destination_id: ids['nyc-edge-01'] });
  await create(t, '/api/extras/computed-fields/', { content_type: 'dcim.device', key: 'fqdn', label: 'FQDN', template: '{{ obj.name }}.example.net' });
  const clusterType = await create(t, '/api/virtualization/cluster-types/', { name: 'vsphere' });
  const cluster = await create(t, '/api/virtualization/clusters/', { name: 'c1', cluster_type: clusterType.id, location: ams.id });
  await create(t, '/api/virtualization/virtual-machines/', { name: 'vm-01', cluster: cluster.id, status: 'Active', role: edge.id, platform: eos.id });
  await create(t, '/api/extras/graphql-queries/', { name: 'Inventory', query: 'query { devices { name primary_ip4 { host } platform { napalm_driver } location { name } } }' });
});
after(() => t.close());

for (const client of [...new Set(CAPTURED.map((c) => c.client))]) {
  describe(`requests sent by ${client}`, () => {
    for (const request of CAPTURED.filter((c) => c.client === client)) {
      it(`should answer: ${request.title}`, async () => {
        const body = request.body && JSON.parse(JSON.stringify(request.body).replace('<ams-edge-01>', ids['ams-edge-01']));
        const headers = request.contentType ? { 'content-type': request.contentType } : undefined;
        const res = await t.call(request.method, request.url, body ?? undefined, { headers });
        assert.equal(res.status, request.expect.status, res.raw);
        if (request.expect.query !== undefined) assert.equal(res.body.query, request.expect.query);
        else assert.deepEqual(JSON.parse(res.raw.replace(UUID, '<uuid>')), request.expect.body);
      });
    }
  });
}
