import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildRegistry } from '../../src/apps/index.js';
import { CIRCUITS_DERIVED_FILTERS } from '../../src/apps/circuits/filters.js';
import { DCIM_DERIVED_FILTERS } from '../../src/apps/dcim/filters/derived.js';
import { derives } from '../../src/apps/shared/derived-filters.js';
import { VIRTUALIZATION_DERIVED_FILTERS } from '../../src/apps/virtualization/filters.js';
import { create, makeApp } from '../helpers/app.js';
import { assertRefused } from '../helpers/refusals.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
const w: Record<string, any> = {};

/** Two sites; device a (tenant in a group, rack in a rack group, one interface and console port) at site a; bare device b at site b. */
before(async () => {
  t = await makeApp();
  const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device', 'dcim.rack', 'dcim.rackgroup', 'virtualization.cluster'] });
  for (const s of ['a', 'b']) w[`site_${s}`] = await create(t, '/api/dcim/locations/', { name: `site-${s}`, location_type: type.id, status: 'Active' });
  w.group = await create(t, '/api/tenancy/tenant-groups/', { name: 'customers' });
  w.tenant = await create(t, '/api/tenancy/tenants/', { name: 'acme-corp', tenant_group: w.group.id });
  w.rack_group = await create(t, '/api/dcim/rack-groups/', { name: 'row-1', location: w.site_a.id });
  w.child_group = await create(t, '/api/dcim/rack-groups/', { name: 'row-1a', location: w.site_a.id, parent: w.rack_group.id });
  w.rack = await create(t, '/api/dcim/racks/', { name: 'r1', location: w.site_a.id, rack_group: w.rack_group.id, status: 'Active' });
  const maker = await create(t, '/api/dcim/manufacturers/', { name: 'maker' });
  w.type = await create(t, '/api/dcim/device-types/', { model: 'box', manufacturer: maker.id });
  const role = await create(t, '/api/extras/roles/', { name: 'router', content_types: ['dcim.device'] });
  const common = { device_type: w.type.id, role: role.id, status: 'Active' };
  w.dev_a = await create(t, '/api/dcim/devices/', { ...common, name: 'a', location: w.site_a.id, rack: w.rack.id, tenant: w.tenant.id });
  w.dev_b = await create(t, '/api/dcim/devices/', { ...common, name: 'b', location: w.site_b.id });
  w.iface = await create(t, '/api/dcim/interfaces/', { device: w.dev_a.id, name: 'eth0', type: '1000base-t', status: 'Active' });
  w.con_a = await create(t, '/api/dcim/console-ports/', { device: w.dev_a.id, name: 'con' });
  w.con_b = await create(t, '/api/dcim/console-ports/', { device: w.dev_b.id, name: 'con' });
});
after(() => t.close());

const ids = async (path: string) => {
  const res = await t.call('GET', path);
  assert.equal(res.status, 200, res.raw);
  return res.body.results.map((o: { id: string }) => o.id).sort();
};

describe('derived filters', () => {
  it('should derive every declared filter from the registry', () => {
    const registry = buildRegistry();
    for (const table of [DCIM_DERIVED_FILTERS, CIRCUITS_DERIVED_FILTERS, VIRTUALIZATION_DERIVED_FILTERS]) {
      for (const [model, entries] of Object.entries(table)) for (const entry of entries) assert.ok(derives(registry, model, entry), `${model} ${entry}`);
    }
  });

  it('should filter components by the location of their device, and its negation', async () => {
    assert.deepEqual(await ids(`/api/dcim/console-ports/?location=${w.site_a.id}`), [w.con_a.id]);
    assert.deepEqual(await ids('/api/dcim/console-ports/?location=site-b'), [w.con_b.id]);
    assert.deepEqual(await ids(`/api/dcim/console-ports/?location__n=${w.site_a.id}`), [w.con_b.id]);
  });

  it('should filter by related objects pointing here and by their presence', async () => {
    assert.deepEqual(await ids('/api/dcim/devices/?has_interfaces=true'), [w.dev_a.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?has_interfaces=false'), [w.dev_b.id]);
    assert.deepEqual(await ids(`/api/dcim/devices/?interfaces=${w.iface.id}`), [w.dev_a.id]);
    assert.deepEqual(await ids(`/api/dcim/rack-groups/?children=${w.child_group.id}`), [w.rack_group.id]);
    assert.deepEqual(await ids('/api/dcim/rack-groups/?has_children=false'), [w.child_group.id]);
    assert.deepEqual(await ids('/api/dcim/device-types/?has_interface_templates=true'), []);
  });

  it('should take __isnull and the value null on a reverse relation, as the reference generates them', async () => {
    assert.deepEqual(await ids('/api/dcim/devices/?interfaces__isnull=true'), [w.dev_b.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?interfaces__isnull=false'), [w.dev_a.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?interfaces=null'), [w.dev_b.id]);
    assert.deepEqual(await ids(`/api/dcim/devices/?interfaces=null&interfaces=${w.iface.id}`), [w.dev_a.id, w.dev_b.id].sort());
    assert.deepEqual(await ids('/api/dcim/locations/?devices__isnull=true'), []);
    const own = await t.call('GET', '/api/dcim/devices/?has_interfaces__isnull=true');
    assert.deepEqual([own.status, own.body], [400, { has_interfaces__isnull: ['Unknown filter field'] }]);
  });

  it('should filter by tenant group and tenant id, through FKs and by FK presence', async () => {
    assert.deepEqual(await ids('/api/dcim/devices/?tenant_group=customers'), [w.dev_a.id]);
    assert.deepEqual(await ids(`/api/dcim/devices/?tenant_id=${w.tenant.id}`), [w.dev_a.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?rack_group=row-1'), [w.dev_a.id]);
    assert.deepEqual(await ids('/api/dcim/devices/?manufacturer=maker'), [w.dev_a.id, w.dev_b.id].sort());
    assert.deepEqual(await ids('/api/dcim/devices/?has_primary_ip=false'), [w.dev_a.id, w.dev_b.id].sort());
    assert.deepEqual(await ids('/api/dcim/devices/?has_primary_ip=true'), []);
  });

  it('should filter a tree by subtree, devices by chassis membership and circuits by terminations', async () => {
    const roomType = await create(t, '/api/dcim/location-types/', { name: 'Room', parent: 'Site' });
    const room = await create(t, '/api/dcim/locations/', { name: 'room-1', location_type: roomType.id, parent: w.site_a.id, status: 'Active' });
    assert.deepEqual(await ids('/api/dcim/locations/?subtree=site-a'), [w.site_a.id, room.id].sort());
    assert.deepEqual(await ids('/api/dcim/devices/?is_virtual_chassis_member=false'), [w.dev_a.id, w.dev_b.id].sort());
    assert.deepEqual(await ids('/api/dcim/devices/?is_virtual_chassis_member=true'), []);
    const provider = await create(t, '/api/circuits/providers/', { name: 'isp' });
    const kind = await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
    const circuit = await create(t, '/api/circuits/circuits/', { cid: 'c1', provider: provider.id, circuit_type: kind.id, status: 'Active' });
    assert.deepEqual(await ids('/api/circuits/circuits/?has_terminations=false'), [circuit.id]);
    await create(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', provider_network: (await create(t, '/api/circuits/provider-networks/', { name: 'mpls', provider: provider.id })).id });
    assert.deepEqual(await ids('/api/circuits/circuits/?has_terminations=true'), [circuit.id]);
    assert.deepEqual(await ids('/api/circuits/providers/?has_circuits=true'), [provider.id]);
  });

  it('should filter devices by the MAC address of an interface, and types by an alias of has_interface_templates', async () => {
    await t.call('PATCH', `/api/dcim/interfaces/${w.iface.id}/`, { mac_address: '00:11:22:33:44:55' });
    assert.deepEqual(await ids('/api/dcim/devices/?mac_address=00:11:22:33:44:55'), [w.dev_a.id]);
    assert.deepEqual(await ids('/api/dcim/device-types/?interfaces=false'), [w.type.id]);
    await create(t, '/api/dcim/interface-templates/', { device_type: w.type.id, name: 'eth9', type: '1000base-t' });
    assert.deepEqual(await ids('/api/dcim/device-types/?interfaces=true'), [w.type.id]);
  });

  it('should refuse an unknown related object as the reference does', async () => {
    const res = await t.call('GET', '/api/dcim/devices/?tenant_group=nobody');
    assertRefused(res, 400, { tenant_group: ['Select a valid choice. nobody is not one of the available choices.'] });
  });
});
