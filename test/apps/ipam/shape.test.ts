import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused, countOf } from '../../helpers/refusals.js';
import { REFERENCE_DIR, needReference } from '../../helpers/prerequisite.js';
import type { TestApp } from '../../helpers/app.js';

/** The captures (../shared/reference): a failure under CI when missing, a counted skip elsewhere. */
const NO_REFERENCE = needReference();
const wire = (model: string) => JSON.parse(readFileSync(`${REFERENCE_DIR}/wire/ipam.${model}.json`, 'utf8'));
/** Keys the service adds on purpose (api-behaviour.md section 0). */
const EXTRA: Record<string, string[]> = { prefix: ['family', 'location'], ipaddress: ['family', 'vrf'] };
/** In OPTIONS prefix `location` is the reference's too (write-only there). */
const EXTRA_OPTIONS: Record<string, string[]> = { prefix: ['family'], ipaddress: ['family', 'vrf'] };

let t: TestApp;
let site: any;
let other: any;
let vrf: any;
let p16: any;
let p24: any;
let ip: any;
before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['ipam.prefix'] });
  site = await create(t, '/api/dcim/locations/', { name: 'site-a', location_type: type.id, status: 'Active' });
  other = await create(t, '/api/dcim/locations/', { name: 'site-b', location_type: type.id, status: 'Active' });
  const ns = await create(t, '/api/ipam/namespaces/', { name: 'ns', location: site.id });
  vrf = await create(t, '/api/ipam/vrfs/', { name: 'blue', rd: '65000:1', namespace: ns.id });
  p16 = await create(t, '/api/ipam/prefixes/', { prefix: '10.99.0.0/16', status: 'Active', namespace: ns.id, type: 'container' });
  p24 = await create(t, '/api/ipam/prefixes/', { prefix: '10.99.1.0/24', status: 'Active', namespace: ns.id, location: site.id, description: 'servers' });
  await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: vrf.id, prefix: p24.id });
  ip = await create(t, '/api/ipam/ip-addresses/', { address: '10.99.1.1/24', status: 'Active', namespace: ns.id, dns_name: 'dev-a.example.com' });
});
after(() => t.close());

function sampleOf(model: string, depth: 0 | 1): Record<string, unknown> {
  return Object.values(wire(model).detail as Record<string, Record<string, Record<string, unknown>>>)[0][`depth=${depth}`];
}

describe('IPAM objects against the wire captures', { skip: NO_REFERENCE }, () => {
  for (const [model, path] of [['prefix', 'prefixes'], ['ipaddress', 'ip-addresses']] as const) {
    it(`should render ${model} with the reference keys in the reference order, plus the spec's extras`, async () => {
      const id = model === 'prefix' ? p24.id : ip.id;
      for (const depth of [0, 1] as const) {
        const got = (await t.call('GET', `/api/ipam/${path}/${id}/?depth=${depth}`)).body;
        const keys = Object.keys(got).filter((k) => !EXTRA[model].includes(k));
        assert.deepEqual(keys, Object.keys(sampleOf(model, depth)), `depth=${depth}`);
      }
    });

    it(`should describe ${model} in OPTIONS as the reference does`, async () => {
      const ours = (await t.call('OPTIONS', `/api/ipam/${path}/`)).body.actions.POST;
      const theirs = wire(model).options.actions.POST as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(ours).filter((k) => !EXTRA_OPTIONS[model].includes(k)), Object.keys(theirs));
      // The wire captures predate the recorded exchanges' help texts (tools/gen-help-texts.py): compare them where the capture has one.
      for (const [key, meta] of Object.entries(theirs)) {
        const { help_text: helpText, ...rest } = ours[key] as Record<string, unknown>;
        assert.deepEqual('help_text' in meta ? ours[key] : rest, meta, `${key} (help_text ${String(helpText)})`);
      }
    });
  }

  it('should render the IP address sample like the capture', async () => {
    const got = (await t.call('GET', `/api/ipam/ip-addresses/${ip.id}/`)).body;
    assert.equal(got.display, '10.99.1.1/24');
    assert.equal(got.natural_slug, `ns_10-99-1-1_${ip.id.slice(0, 4)}`);
    assert.equal(got.address, '10.99.1.1/24');
    assert.equal(got.host, '10.99.1.1');
    assert.equal(got.mask_length, 24);
    assert.equal(got.type, 'host');
    assert.equal(got.ip_version, 4);
    assert.deepEqual(got.family, { value: 4, label: 'IPv4' });
    assert.equal(got.parent.id, p24.id);
    assert.deepEqual(got.vrf, { id: vrf.id, object_type: 'ipam.vrf', url: vrf.url });
    const deep = (await t.call('GET', `/api/ipam/ip-addresses/${ip.id}/?depth=1`)).body;
    assert.equal(deep.vrf.display, 'ns: (blue)');
    assert.equal(deep.parent.prefix, '10.99.1.0/24');
  });

  it('should render the prefix sample like the capture, with location and locations', async () => {
    const got = (await t.call('GET', `/api/ipam/prefixes/${p24.id}/`)).body;
    assert.equal(got.display, '10.99.1.0/24: ns');
    assert.equal(got.natural_slug, `ns_10-99-1-0_24_${p24.id.slice(0, 4)}`);
    assert.deepEqual(got.type, { value: 'network', label: 'Network' });
    assert.equal(got.parent.id, p16.id);
    assert.deepEqual(got.locations.map((l: any) => l.id), [site.id]);
    assert.equal(got.location.id, site.id);
    assert.deepEqual(got.vrfs.map((v: any) => v.id), [vrf.id]);
    assert.deepEqual((await t.call('GET', `/api/ipam/vrfs/${vrf.id}/`)).body.prefixes.map((p: any) => p.id), [p24.id]);
    assert.deepEqual((await t.call('GET', `/api/ipam/prefixes/${p16.id}/`)).body.type, { value: 'container', label: 'Container' });
  });
});

describe('prefix location and locations', () => {
  it('should replace locations when location is written, and follow assignments', async () => {
    const p = await create(t, '/api/ipam/prefixes/', { prefix: '10.98.0.0/24', status: 'Active', location: site.id });
    await create(t, '/api/ipam/prefix-location-assignments/', { prefix: p.id, location: other.id });
    let got = (await t.call('GET', `/api/ipam/prefixes/${p.id}/`)).body;
    assert.deepEqual(got.locations.map((l: any) => l.id).sort(), [site.id, other.id].sort());
    assert.equal(got.location.id, site.id, 'the single location stays while still assigned');
    got = (await t.call('PATCH', `/api/ipam/prefixes/${p.id}/`, { location: other.id })).body;
    assert.deepEqual(got.locations.map((l: any) => l.id), [other.id]);
    const assignments = (await t.call('GET', `/api/ipam/prefix-location-assignments/?prefix=${p.id}`)).body.results;
    assert.deepEqual(assignments.map((a: any) => a.location.id), [other.id]);
    assert.equal((await t.call('DELETE', `/api/ipam/prefix-location-assignments/${assignments[0].id}/`)).status, 204);
    got = (await t.call('GET', `/api/ipam/prefixes/${p.id}/`)).body;
    assert.deepEqual([got.location, got.locations], [null, []]);
  });

  it('should refuse a location whose type does not allow prefixes', async () => {
    const type = await create(t, '/api/dcim/location-types/', { name: 'Rackless', content_types: [] });
    const loc = await create(t, '/api/dcim/locations/', { name: 'nowhere', location_type: type.id, status: 'Active' });
    const res = await t.call('POST', '/api/ipam/prefixes/', { prefix: '10.97.0.0/24', status: 'Active', location: loc.id });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { location: ['Prefixes may not associate to locations of type "Rackless".'] });
  });

  it('should drop the prefix from a deleted location and count prefixes per location', async () => {
    const type = await create(t, '/api/dcim/location-types/', { name: 'Temp', content_types: ['ipam.prefix'] });
    const temp = await create(t, '/api/dcim/locations/', { name: 'temp', location_type: type.id, status: 'Active' });
    const p = await create(t, '/api/ipam/prefixes/', { prefix: '10.96.0.0/24', status: 'Active', location: temp.id });
    assert.equal((await t.call('GET', `/api/dcim/locations/${temp.id}/`)).body.prefix_count, 1);
    assert.equal((await t.call('DELETE', `/api/dcim/locations/${temp.id}/`)).status, 204);
    const got = (await t.call('GET', `/api/ipam/prefixes/${p.id}/`)).body;
    assert.deepEqual([got.location, got.locations], [null, []]);
  });

  it('should clear the IP vrf when the VRF assignment goes', async () => {
    const assignment = (await t.call('GET', `/api/ipam/vrf-prefix-assignments/?prefix=${p24.id}`)).body.results[0];
    assert.equal((await t.call('DELETE', `/api/ipam/vrf-prefix-assignments/${assignment.id}/`)).status, 204);
    assert.equal((await t.call('GET', `/api/ipam/ip-addresses/${ip.id}/`)).body.vrf, null);
    await create(t, '/api/ipam/vrf-prefix-assignments/', { vrf: vrf.id, prefix: p24.id });
    assert.equal((await t.call('GET', `/api/ipam/ip-addresses/${ip.id}/`)).body.vrf.id, vrf.id);
    const wrongNs = await t.call('POST', '/api/ipam/vrf-prefix-assignments/', { vrf: vrf.id, prefix: (await create(t, '/api/ipam/prefixes/', { prefix: '10.95.0.0/24', status: 'Active' })).id });
    assertRefused(wrongNs, 400, { prefix: ['Prefix (namespace Global) must be in same namespace as VRF (namespace ns)'] });
  });
});

describe('VLAN and VLAN group locations (catalogue: the location type must allow the model)', () => {
  it('should refuse a VLAN or VLAN group at a location whose type does not allow it, and write nothing', async () => {
    const type = await create(t, '/api/dcim/location-types/', { name: 'No VLANs', content_types: ['ipam.prefix'] });
    const loc = await create(t, '/api/dcim/locations/', { name: 'no-vlans', location_type: type.id, status: 'Active' });
    const [vlans, groups] = [await countOf(t, '/api/ipam/vlans/'), await countOf(t, '/api/ipam/vlan-groups/')];
    const vlan = await t.call('POST', '/api/ipam/vlans/', { vid: 40, name: 'v40', status: 'Active', location: loc.id });
    assertRefused(vlan, 400, { location: ['VLANs may not associate to locations of type "No VLANs".'] });
    const group = await t.call('POST', '/api/ipam/vlan-groups/', { name: 'g40', location: loc.id });
    assertRefused(group, 400, { location: ['VLAN groups may not associate to locations of type "No VLANs".'] });
    assert.deepEqual([await countOf(t, '/api/ipam/vlans/'), await countOf(t, '/api/ipam/vlan-groups/')], [vlans, groups], 'nothing written');
    const placed = await create(t, '/api/ipam/vlans/', { vid: 41, name: 'v41', status: 'Active' });
    assertRefused(await t.call('PATCH', `/api/ipam/vlans/${placed.id}/`, { location: loc.id }), 400, { location: ['VLANs may not associate to locations of type "No VLANs".'] });
    assert.equal(await countOf(t, `/api/ipam/vlan-location-assignments/?vlan=${placed.id}`), 0, 'no assignment written');
  });

  it('should place them once the location type allows them', async () => {
    const type = await create(t, '/api/dcim/location-types/', { name: 'VLANs', content_types: ['ipam.vlan', 'ipam.vlangroup'] });
    const loc = await create(t, '/api/dcim/locations/', { name: 'vlans-here', location_type: type.id, status: 'Active' });
    const vlan = await create(t, '/api/ipam/vlans/', { vid: 42, name: 'v42', status: 'Active', location: loc.id });
    assert.deepEqual(vlan.locations.map((l: any) => l.id), [loc.id]);
    const group = await create(t, '/api/ipam/vlan-groups/', { name: 'g42', location: loc.id });
    assert.equal(group.location.id, loc.id);
  });
});

describe('derived counts and protected deletes', () => {
  it('should count VLANs per group, prefixes per VLAN and per RIR', async () => {
    const group = await create(t, '/api/ipam/vlan-groups/', { name: 'counted' });
    const vlan = await create(t, '/api/ipam/vlans/', { name: 'v', vid: 7, status: 'Active', vlan_group: group.id });
    const rir = await create(t, '/api/ipam/rirs/', { name: 'ARIN' });
    const prefix = await create(t, '/api/ipam/prefixes/', { prefix: '10.94.0.0/24', status: 'Active', vlan: vlan.id, rir: rir.id });
    assert.equal((await t.call('GET', `/api/ipam/vlan-groups/${group.id}/`)).body.vlan_count, 1);
    assert.equal((await t.call('GET', `/api/ipam/vlans/${vlan.id}/`)).body.prefix_count, 1);
    assert.equal((await t.call('GET', `/api/ipam/rirs/${rir.id}/`)).body.assigned_prefix_count, 1);
    assertRefused(await t.call('DELETE', `/api/ipam/vlans/${vlan.id}/`), 409, { detail: `Unable to delete object. 1 dependent objects were found: 10.94.0.0/24: Global (${prefix.id})` }, 'a VLAN with prefixes stays');
  });

  it('should refuse to delete a namespace that holds prefixes, naming the prefixes only', async () => {
    const ns = await create(t, '/api/ipam/namespaces/', { name: 'busy' });
    const p = await create(t, '/api/ipam/prefixes/', { prefix: '10.93.0.0/24', status: 'Active', namespace: ns.id });
    await create(t, '/api/ipam/ip-addresses/', { address: '10.93.0.1/24', status: 'Active', namespace: ns.id });
    const res = await t.call('DELETE', `/api/ipam/namespaces/${ns.id}/`);
    assert.equal(res.status, 409);
    assert.equal(res.body.detail, `Unable to delete object. 1 dependent objects were found: 10.93.0.0/24: busy (${p.id})`);
  });
});
