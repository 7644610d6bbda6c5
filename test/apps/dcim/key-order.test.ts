import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../../helpers/app.js';
import { UNSERVED_KEYS, sampleOf, wireOf } from '../../contract/wire.js';
import { needReference } from '../../helpers/prerequisite.js';
import { makeDevices } from './cable-topology.js';
import type { TestApp } from '../../helpers/app.js';

/** Models whose key order this file checks against the captures: devices, cables and every cable termination. */
const MODELS = ['dcim.device', 'dcim.cable', 'dcim.interface', 'dcim.frontport', 'dcim.rearport', 'dcim.consoleport', 'dcim.consoleserverport',
  'dcim.powerport', 'dcim.poweroutlet', 'dcim.powerfeed', 'circuits.circuittermination'];

const NO_REFERENCE = needReference();
let t: TestApp;
let device: any;

const served = (model: string, keys: string[]) => keys.filter((k) => !(UNSERVED_KEYS[model] ?? []).includes(k));

before(async () => {
  t = await makeApp();
  device = (await makeDevices(t, ['k1'])).k1;
});
after(() => t?.close());

describe('key order against the reference captures', { skip: NO_REFERENCE }, () => {
  it('should list OPTIONS POST fields in the reference order', async () => {
    for (const model of MODELS) {
      const wire = wireOf(model)!;
      const res = await t.call('OPTIONS', wire.endpoint);
      assert.deepEqual(Object.keys(res.body.actions.POST), served(model, Object.keys(wire.options.actions.POST)), model);
    }
  });

  it('should render a device with parent_bay after tags, as the reference', async () => {
    for (const depth of [0, 1] as const) {
      const res = await t.call('GET', `/api/dcim/devices/${device.id}/?depth=${depth}`);
      assert.deepEqual(Object.keys(res.body), Object.keys(sampleOf('dcim.device', depth)!), `depth ${depth}`);
    }
  });
});
