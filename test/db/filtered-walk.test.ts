import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { deviceBody, makeDcimBase } from '../apps/dcim/dcim-setup.js';
import { pageTuning } from '../../src/db/query/page.js';
import type { TestApp } from '../helpers/app.js';

/**
 * A filtered list ordered by a foreign key first (interfaces by device) is sorted when the filter
 * keeps few rows and walked through the targets when it keeps many (pageTuning.walk forces either way): both
 * must give the same order, counts and slices, the rows without a target included.
 */
let t: TestApp;
const defaultWalk = pageTuning.walk;

before(async () => {
  t = await makeApp();
  const base = await makeDcimBase(t);
  const devices = await create(t, '/api/dcim/devices/', ['b-2', 'b-10', 'a-1'].map((n) => deviceBody(base, n)));
  await create(t, '/api/dcim/interfaces/', devices.flatMap((d: { id: string }) => ['eth10', 'eth2', 'lo0', 'eth1'].map((name) => ({ device: d.id, name, type: name.startsWith('lo') ? 'virtual' : '1000base-t', status: 'Active' }))));
  const bay = await create(t, '/api/dcim/module-bays/', { parent_device: devices[0].id, name: 'Slot 1' });
  const card = await create(t, '/api/dcim/module-types/', { model: 'LC', manufacturer: base.manufacturer.id });
  const module = await create(t, '/api/dcim/modules/', { module_type: card.id, parent_module_bay: bay.id, status: 'Active' });
  await create(t, '/api/dcim/interfaces/', ['eth9', 'eth3'].map((name) => ({ module: module.id, name, type: '1000base-t', status: 'Active' })));
});
afterEach(() => {
  pageTuning.walk = defaultWalk;
});
after(() => t.close());

const ids = async (url: string) => {
  const res = await t.call('GET', url);
  assert.equal(res.status, 200);
  return { count: res.body.count as number, ids: res.body.results.map((i: { id: string }) => i.id) as string[] };
};

/** The same request answered by a sort (threshold above the matches) and by a walk (threshold 0). */
async function bothWays(url: string) {
  pageTuning.walk = 'never';
  const sorted = await ids(url);
  pageTuning.walk = 'always';
  const walked = await ids(url);
  return { sorted, walked };
}

describe('filtered lists ordered by a foreign key first', () => {
  it('should give the same order whether the filtered rows are sorted or walked through their devices', async () => {
    const { sorted, walked } = await bothWays('/api/dcim/interfaces/?type=1000base-t&limit=100');
    assert.equal(sorted.count, 11);
    assert.deepEqual(walked, sorted);
    const names = (await t.call('GET', '/api/dcim/interfaces/?type=1000base-t&limit=100')).body.results.map((i: any) => i.name);
    assert.deepEqual(names.slice(0, 3), ['eth1', 'eth2', 'eth10'], 'natural order within the first device');
    assert.deepEqual(names.slice(-2), ['eth3', 'eth9'], 'the device-less (module) interfaces last');
  });

  it('should give the same order descending, the device-less rows first', async () => {
    const { sorted, walked } = await bothWays('/api/dcim/interfaces/?type=1000base-t&sort=-device&limit=100');
    assert.deepEqual(walked, sorted);
  });

  it('should give every page the same slice of the whole order when walking', async () => {
    pageTuning.walk = 'always';
    const whole = await ids('/api/dcim/interfaces/?type=1000base-t&limit=100');
    for (const [limit, offset] of [[4, 0], [4, 7], [3, 8], [5, 9], [10, 11]]) {
      const page = await ids(`/api/dcim/interfaces/?type=1000base-t&limit=${limit}&offset=${offset}`);
      assert.equal(page.count, 11);
      assert.deepEqual(page.ids, whole.ids.slice(offset, offset + limit), `limit ${limit} offset ${offset}`);
    }
  });
});
