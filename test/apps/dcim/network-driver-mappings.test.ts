import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

describe('GET /api/dcim/platforms/ network_driver_mappings', () => {
  it('should map cisco_ios to every tool name, as the reference shows it', async () => {
    const p = await create(t, '/api/dcim/platforms/', { name: 'IOS', network_driver: 'cisco_ios' });
    assert.deepEqual(p.network_driver_mappings, {
      aerleon: 'cisco', ansible: 'cisco.ios.ios', capirca: 'cisco', dna_center: 'IOS', forward_networks: 'IOS', hier_config: 'ios', napalm: 'ios',
      netmiko: 'cisco_ios', netutils_parser: 'cisco_ios', nist: 'cisco:ios', ntc_templates: 'cisco_ios', pyats: 'iosxe', pyntc: 'cisco_ios_ssh', scrapli: 'cisco_iosxe',
    });
    assert.deepEqual(Object.keys(p.network_driver_mappings), Object.keys(p.network_driver_mappings).sort());
  });

  it('should follow the driver as it changes, and be {} without a known driver', async () => {
    const p = await create(t, '/api/dcim/platforms/', { name: 'Junos', network_driver: 'juniper_junos' });
    assert.equal((await t.call('GET', `/api/dcim/platforms/${p.id}/`)).body.network_driver_mappings.napalm, 'junos');
    const patched = await t.call('PATCH', `/api/dcim/platforms/${p.id}/`, { network_driver: 'arista_eos' });
    assert.equal(patched.body.network_driver_mappings.netmiko, 'arista_eos');
    assert.deepEqual((await t.call('PATCH', `/api/dcim/platforms/${p.id}/`, { network_driver: 'no_such_os' })).body.network_driver_mappings, {});
    assert.deepEqual((await create(t, '/api/dcim/platforms/', { name: 'Bare' })).network_driver_mappings, {});
  });

  it('should stay read-only: a written value is ignored', async () => {
    const p = await create(t, '/api/dcim/platforms/', { name: 'EOS', network_driver: 'arista_eos', network_driver_mappings: { napalm: 'x' } });
    assert.equal(p.network_driver_mappings.napalm, 'eos');
  });
});
