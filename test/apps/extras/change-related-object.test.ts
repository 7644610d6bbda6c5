import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

/**
 * Change records name the object's parent as related object, as the reference's
 * `to_objectchange` overrides do (Nautobot 2.4.36): device components their device (or their
 * module), module bays the device their module sits in, VM interfaces their virtual machine,
 * circuit terminations their circuit; other models leave both fields null.
 */

let t: TestApp;
const w: Record<string, any> = {};

/** The one change record of `action` on object `id`. */
async function record(id: string, action: 'create' | 'update' | 'delete'): Promise<any> {
  const res = await t.call('GET', `/api/extras/object-changes/?changed_object_id=${id}&action=${action}`);
  assert.equal(res.status, 200, res.raw);
  assert.equal(res.body.count, 1, res.raw);
  return res.body.results[0];
}

/** The record's related object as `[type, id]`; the serializer has no `related_object` key. */
function related(rec: any): [string | null, string | null] {
  assert.ok(!('related_object' in rec), 'no related_object key, as the reference serializer');
  return [rec.related_object_type, rec.related_object_id];
}

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device', 'dcim.module', 'circuits.circuittermination'] });
  w.site = await create(t, '/api/dcim/locations/', { name: 'dc1', location_type: 'Site', status: 'Active' });
  const manufacturer = await create(t, '/api/dcim/manufacturers/', { name: 'acme' });
  const type = await create(t, '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'box' });
  const role = await create(t, '/api/extras/roles/', { name: 'gear', content_types: ['dcim.device'] });
  w.device = await create(t, '/api/dcim/devices/', { name: 'r1', device_type: type.id, role: role.id, location: w.site.id, status: 'Active' });
  w.moduleType = await create(t, '/api/dcim/module-types/', { model: 'LC', manufacturer: manufacturer.id });
});
after(() => t.close());

describe('related object of change records', () => {
  it('should name the device in the create, update and delete records of an interface', async () => {
    const iface = await create(t, '/api/dcim/interfaces/', { device: w.device.id, name: 'eth0', type: '1000base-t', status: 'Active' });
    assert.equal((await t.call('PATCH', `/api/dcim/interfaces/${iface.id}/`, { description: 'uplink' })).status, 200);
    assert.equal((await t.call('DELETE', `/api/dcim/interfaces/${iface.id}/`)).status, 204);
    for (const action of ['create', 'update', 'delete'] as const) {
      assert.deepEqual(related(await record(iface.id, action)), ['dcim.device', w.device.id], action);
    }
  });

  it('should name the module of a component on a module, and the device a module bay\'s module sits in', async () => {
    const bay = await create(t, '/api/dcim/module-bays/', { parent_device: w.device.id, name: 'slot1' });
    assert.deepEqual(related(await record(bay.id, 'create')), ['dcim.device', w.device.id]);
    const m1 = await create(t, '/api/dcim/modules/', { module_type: w.moduleType.id, parent_module_bay: bay.id, status: 'Active' });
    const port = await create(t, '/api/dcim/console-ports/', { module: m1.id, name: 'con' });
    assert.deepEqual(related(await record(port.id, 'create')), ['dcim.module', m1.id]);
    // Two modules deep: the bay's module's device is the device at the top of the chain.
    const sub = await create(t, '/api/dcim/module-bays/', { parent_module: m1.id, name: 'sub' });
    const m2 = await create(t, '/api/dcim/modules/', { module_type: w.moduleType.id, parent_module_bay: sub.id, status: 'Active' });
    const deep = await create(t, '/api/dcim/module-bays/', { parent_module: m2.id, name: 'deep' });
    assert.deepEqual(related(await record(sub.id, 'create')), ['dcim.device', w.device.id]);
    assert.deepEqual(related(await record(deep.id, 'create')), ['dcim.device', w.device.id]);
    // A module stored at a location has no device: its bays name none.
    const loose = await create(t, '/api/dcim/modules/', { module_type: w.moduleType.id, location: w.site.id, status: 'Active' });
    const looseBay = await create(t, '/api/dcim/module-bays/', { parent_module: loose.id, name: 'spare' });
    assert.deepEqual(related(await record(looseBay.id, 'create')), [null, null]);
    // Deleting the device records every component it takes along, each naming its parent as before.
    const iface = await create(t, '/api/dcim/interfaces/', { module: m2.id, name: 'eth9', type: '1000base-t', status: 'Active' });
    assert.equal((await t.call('DELETE', `/api/dcim/devices/${w.device.id}/`)).status, 204);
    assert.deepEqual(related(await record(deep.id, 'delete')), ['dcim.device', w.device.id]);
    assert.deepEqual(related(await record(iface.id, 'delete')), ['dcim.module', m2.id]);
    assert.deepEqual(related(await record(w.device.id, 'delete')), [null, null]);
  });

  it('should name the virtual machine of a VM interface', async () => {
    const type = await create(t, '/api/virtualization/cluster-types/', { name: 'kvm' });
    const cluster = await create(t, '/api/virtualization/clusters/', { name: 'c1', cluster_type: type.id });
    const vm = await create(t, '/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id, status: 'Active' });
    const iface = await create(t, '/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'ens1', status: 'Active' });
    assert.equal((await t.call('PATCH', `/api/virtualization/interfaces/${iface.id}/`, { mtu: 9000 })).status, 200);
    assert.deepEqual(related(await record(iface.id, 'create')), ['virtualization.virtualmachine', vm.id]);
    assert.deepEqual(related(await record(iface.id, 'update')), ['virtualization.virtualmachine', vm.id]);
    assert.deepEqual(related(await record(vm.id, 'create')), [null, null]);
  });

  it('should name the circuit of a circuit termination', async () => {
    const provider = await create(t, '/api/circuits/providers/', { name: 'isp' });
    const kind = await create(t, '/api/circuits/circuit-types/', { name: 'transit' });
    const circuit = await create(t, '/api/circuits/circuits/', { cid: 'c1', provider: provider.id, circuit_type: kind.id, status: 'Active' });
    const term = await create(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', location: w.site.id });
    assert.equal((await t.call('DELETE', `/api/circuits/circuit-terminations/${term.id}/`)).status, 204);
    assert.deepEqual(related(await record(term.id, 'create')), ['circuits.circuit', circuit.id]);
    assert.deepEqual(related(await record(term.id, 'delete')), ['circuits.circuit', circuit.id]);
  });

  it('should keep nulls for a model without a related object', async () => {
    assert.equal((await t.call('PATCH', `/api/dcim/locations/${w.site.id}/`, { description: 'main' })).status, 200);
    assert.deepEqual(related(await record(w.site.id, 'create')), [null, null]);
    assert.deepEqual(related(await record(w.site.id, 'update')), [null, null]);
  });
});
