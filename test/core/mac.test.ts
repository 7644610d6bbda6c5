import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { normalizeMac } from '../../src/core/fields/mac.js';
import { create, makeApp } from '../helpers/app.js';
import { deviceBody, makeDcimBase } from '../apps/dcim/dcim-setup.js';
import type { TestApp } from '../helpers/app.js';

describe('normalizeMac (the reference netaddr EUI-48 formats, rendered upper-case with colons)', () => {
  it('should read every format netaddr reads and refuse the others', () => {
    for (const text of ['52:54:00:0a:0b:fc', '52-54-00-0A-0B-FC', '5254.000a.0bfc', '5254:000a:0bfc', '5254-000a-0bfc', '525400-0a0bfc', '525400:0a0bfc', '5254000a0bfc', ' 52:54:0:a:b:fc ']) {
      assert.equal(normalizeMac(text), '52:54:00:0A:0B:FC', text);
    }
    assert.equal(normalizeMac('254000a0bfc'), '02:54:00:0A:0B:FC');
    for (const text of ['52:54:00:0a:0b', '52:54-00:0a:0b:fc', '5254.000a:0bfc', 'zz:54:00:0a:0b:fc', '52540', '5254000a0bfc00', '']) assert.equal(normalizeMac(text), null, text);
  });
});

describe('interface and VM interface mac_address through the API', () => {
  let t: TestApp;
  let device: { id: string };
  before(async () => {
    t = await makeApp();
    const base = await makeDcimBase(t);
    device = await create(t, '/api/dcim/devices/', deviceBody(base, 'mac-host'));
  });
  after(() => t.close());

  it('should store the canonical form, render empty as null and accept null', async () => {
    const made = await create(t, '/api/dcim/interfaces/', [
      { device: device.id, name: 'e0', type: 'virtual', status: 'Active', mac_address: '5254.000a.0bfc' },
      { device: device.id, name: 'e1', type: 'virtual', status: 'Active' },
      { device: device.id, name: 'e2', type: 'virtual', status: 'Active', mac_address: null },
      { device: device.id, name: 'e3', type: 'virtual', status: 'Active', mac_address: '' },
    ]);
    assert.deepEqual(made.map((i: { mac_address: unknown }) => i.mac_address), ['52:54:00:0A:0B:FC', null, null, null]);
  });

  it('should refuse what is no MAC address, naming the field', async () => {
    const res = await t.call('POST', '/api/dcim/interfaces/', { device: device.id, name: 'bad', type: 'virtual', status: 'Active', mac_address: '52:54:00:zz:0b:fc' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { mac_address: ['Invalid MAC address format: 52:54:00:zz:0b:fc'] });
  });

  it('should filter by any form of the address', async () => {
    const res = await t.call('GET', '/api/dcim/interfaces/?mac_address=52-54-00-0a-0b-fc');
    assert.deepEqual(res.body.results.map((i: { name: string }) => i.name), ['e0']);
    assert.equal((await t.call('GET', `/api/dcim/devices/?mac_address=5254000a0bfc`)).body.count, 1);
    assert.equal((await t.call('GET', '/api/dcim/interfaces/?mac_address__ic=0A:0B')).body.count, 1);
  });
});
