import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

const P = '/api/ipam/prefixes/';
const IP = '/api/ipam/ip-addresses/';
const CSV_IN = { 'content-type': 'text/csv' };

let t: TestApp;
let blue: any;
before(async () => {
  t = await makeApp();
  blue = await create(t, '/api/ipam/namespaces/', { name: 'blue' });
  await create(t, P, [{ prefix: '10.20.0.0/16', status: 'Active', namespace: blue.id }, { prefix: '10.20.0.0/16', status: 'Active' }]);
});
after(() => t.close());

/** Exports one object as CSV, deletes it and imports the CSV again: the re-created object. */
async function roundTrip(path: string, id: string): Promise<{ csv: string; again: any }> {
  const csv = (await t.call('GET', `${path}?format=csv&id=${id}`)).raw;
  assert.equal((await t.call('DELETE', `${path}${id}/`)).status, 204);
  const res = await t.call('POST', path, csv, { headers: CSV_IN });
  assert.equal(res.status, 201, `${csv}\n${res.raw}`);
  return { csv, again: (await t.call('GET', `${path}${id}/`)).body };
}

describe('CSV round trip of IPAM objects with a parent', () => {
  it('should re-create an IP address whose parent columns name a prefix of its namespace', async () => {
    const ip = await create(t, IP, { address: '10.20.3.4/24', status: 'Active', namespace: blue.id });
    const { csv, again } = await roundTrip(IP, ip.id);
    assert.match(csv.split(/\r?\n/)[0], /parent__namespace__name,parent__network,parent__prefix_length/);
    assert.equal(again.address, '10.20.3.4/24');
    assert.equal(again.parent.id, ip.parent.id, 'the parent is the prefix of namespace blue');
  });

  it('should re-create a prefix whose parent columns name its parent prefix', async () => {
    const child = await create(t, P, { prefix: '10.20.8.0/24', status: 'Active', namespace: blue.id });
    const { csv, again } = await roundTrip(P, child.id);
    assert.match(csv.split(/\r?\n/)[0], /parent__namespace__name,parent__network,parent__prefix_length/);
    assert.equal(again.prefix, '10.20.8.0/24');
    assert.equal(again.parent.id, child.parent.id);
    assert.equal(again.namespace.id, blue.id);
  });

  it('should refuse an IP address whose parent columns name no prefix, naming the parent field', async () => {
    const csv = 'address,status__name,namespace,parent__namespace__name,parent__network,parent__prefix_length\n10.20.5.5/24,Active,blue,blue,10.99.0.0,16\n';
    const res = await t.call('POST', IP, csv, { headers: CSV_IN });
    assert.equal(res.status, 400, res.raw);
    assert.match(res.raw, /parent/);
  });
});
