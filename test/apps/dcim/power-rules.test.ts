import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { makeDcimBase } from './dcim-setup.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { DcimBase } from './dcim-setup.js';

let t: TestApp;
let base: DcimBase;
let panel: any;

before(async () => {
  t = await makeApp();
  base = await makeDcimBase(t);
  panel = await create(t, '/api/dcim/power-panels/', { name: 'PP1', location: base.site.id, breaker_position_count: 6 });
});
after(() => t.close());

const feed = (name: string, extra: Record<string, unknown> = {}) => t.call('POST', '/api/dcim/power-feeds/', { name, power_panel: panel.id, status: 'Active', ...extra });

describe('power panels', () => {
  it('should refuse a rack group outside the panel location', async () => {
    const group = await create(t, '/api/dcim/rack-groups/', { name: 'Paris', location: base.site2.id });
    const res = await t.call('POST', '/api/dcim/power-panels/', { name: 'PP2', location: base.site.id, rack_group: group.id });
    assertRefused(res, 400, { rack_group: ['Rack group Paris (Paris) is in a different location than Berlin'] });
  });
});

describe('power feeds', () => {
  it('should refuse a rack on another branch of the location tree', async () => {
    const far = await create(t, '/api/dcim/racks/', { name: 'far', location: base.site2.id, status: 'Active' });
    assertRefused(await feed('f-far', { rack: far.id }), 400, { power_panel: ['Rack far (Paris) and power panel PP1 (Berlin) are in different locations'] });
    assert.equal((await feed('f-near', { rack: base.rack.id })).status, 201);
  });

  it('should refuse zero voltage and negative AC voltage', async () => {
    assertRefused(await feed('v0', { voltage: 0 }), 400, { voltage: ['Voltage cannot be zero (0)'] });
    assertRefused(await feed('v-', { voltage: -48 }), 400, { voltage: ['Voltage cannot be negative for AC supply'] });
    assert.equal((await feed('dc', { voltage: -48, supply: 'dc' })).status, 201);
  });

  it('should refuse the source panel as destination', async () => {
    assertRefused(await feed('loop', { destination_panel: panel.id }), 400, { destination_panel: ['Destination panel cannot be the same as the source power panel.'] });
  });

  it('should compute available power and default the pole count', async () => {
    const res = await feed('calc', { voltage: 230, amperage: 16, max_utilization: 80, phase: 'three-phase', breaker_position: 1 });
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.available_power, Math.round(230 * 16 * 0.8 * 1.732));
    assert.equal(res.body.breaker_pole_count.value, 1);
  });

  it('should refuse breaker slots beyond the panel or taken by another feed', async () => {
    const clash = await feed('clash', { breaker_position: 3, breaker_pole_count: 2 });
    assert.equal(clash.status, 201, clash.raw);
    assertRefused(await feed('taken', { breaker_position: 5 }), 400, { breaker_position: ['Breaker position(s) 5 are already used by power feed clash.'] }, 'slots 3 and 5 are taken');
    assertRefused(await feed('beyond', { breaker_position: 6, breaker_pole_count: 2 }), 400, { breaker_position: ["Breaker positions 6, 8 exceed the panel's 6 positions."] }, 'slot 8 does not exist');
    assert.equal((await feed('free', { breaker_position: 2, breaker_pole_count: 3 })).status, 201);
  });
});
