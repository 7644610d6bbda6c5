import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let d1: any;
let d2: any;
let vm: any;
const CC = '/api/extras/config-contexts/';

before(async () => {
  t = await makeApp();
  await create(t, '/api/dcim/location-types/', { name: 'Area', nestable: true, content_types: ['dcim.device', 'virtualization.cluster'] });
  const eu = await create(t, '/api/dcim/locations/', { name: 'EU', location_type: 'Area', status: 'Active' });
  const berlin = await create(t, '/api/dcim/locations/', { name: 'Berlin', location_type: 'Area', status: 'Active', parent: eu.id });
  const us = await create(t, '/api/dcim/locations/', { name: 'US', location_type: 'Area', status: 'Active' });
  await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
  const type = await create(t, '/api/dcim/device-types/', { manufacturer: { name: 'Acme' }, model: 'X1' });
  const role = await create(t, '/api/extras/roles/', { name: 'leaf', content_types: ['dcim.device', 'virtualization.virtualmachine'] });
  await create(t, '/api/dcim/platforms/', { name: 'eos' });
  const corp = await create(t, '/api/tenancy/tenant-groups/', { name: 'corp' });
  await create(t, '/api/tenancy/tenant-groups/', { name: 'corp-eu', parent: corp.id });
  await create(t, '/api/tenancy/tenants/', { name: 't1', tenant_group: { name: 'corp-eu' } });
  const gold = await create(t, '/api/extras/tags/', { name: 'gold', content_types: ['dcim.device'] });
  await create(t, '/api/virtualization/cluster-types/', { name: 'vmware' });
  await create(t, '/api/virtualization/clusters/', { name: 'c1', cluster_type: { name: 'vmware' }, location: berlin.id });
  const device = { device_type: type.id, role: role.id, status: 'Active' };
  d1 = await create(t, '/api/dcim/devices/', { ...device, name: 'd1', location: berlin.id, tenant: { name: 't1' }, platform: { name: 'eos' }, tags: [gold.id], local_config_context_data: { site: 'local' } });
  d2 = await create(t, '/api/dcim/devices/', { ...device, name: 'd2', location: us.id });
  vm = await create(t, '/api/virtualization/virtual-machines/', { name: 'vm1', cluster: { name: 'c1' }, status: 'Active' });
  await create(t, CC, { name: 'global', weight: 100, data: { ntp: ['a'], dns: { primary: '1.1.1.1', secondary: '8.8.8.8' }, site: 'global' } });
  await create(t, CC, { name: 'eu', weight: 200, locations: [eu.id], data: { dns: { primary: '9.9.9.9' }, site: 'eu' } });
  await create(t, CC, { name: 'b-role', weight: 300, roles: [role.id], data: { ntp: ['b'] } });
  await create(t, CC, { name: 'a-corp', weight: 300, tenant_groups: [corp.id], data: { site: 'corp' } });
  await create(t, CC, { name: 'gold', weight: 400, tags: [gold.id], data: { gold: true } });
  await create(t, CC, { name: 'us', locations: [us.id], platforms: [{ name: 'eos' }], data: { us: true } });
  await create(t, CC, { name: 'off', weight: 999, is_active: false, data: { site: 'inactive' } });
});
after(() => t.close());

describe('config contexts (catalogue configcontext rules)', () => {
  it('should render config_context only with include=config_context', async () => {
    const plain = await t.call('GET', `/api/dcim/devices/${d1.id}/`);
    assert.equal('config_context' in plain.body, false);
    assert.ok('config_context' in d2, 'a POST response carries the opt-in key');
  });

  it('should merge applicable contexts by weight then name, deep for objects, local data last', async () => {
    // "applicable contexts are ordered by weight then name and deep-merged in that order ... all other values (including lists) are replaced"
    const res = await t.call('GET', `/api/dcim/devices/${d1.id}/?include=config_context`);
    assert.deepEqual(res.body.config_context, { ntp: ['b'], dns: { primary: '9.9.9.9', secondary: '8.8.8.8' }, site: 'local', gold: true });
    const other = await t.call('GET', `/api/dcim/devices/?include=config_context&name=d2`);
    assert.deepEqual(other.body.results[0].config_context, { ntp: ['b'], dns: { primary: '1.1.1.1', secondary: '8.8.8.8' }, site: 'global' }, 'a scope with two fields needs both');
  });

  it('should reach a virtual machine\'s location through its cluster', async () => {
    const res = await t.call('GET', `/api/virtualization/virtual-machines/${vm.id}/?include=config_context`);
    assert.deepEqual(res.body.config_context, { ntp: ['a'], dns: { primary: '9.9.9.9', secondary: '8.8.8.8' }, site: 'eu' });
  });
});

describe('config context scope filters (catalogue configcontext filters)', () => {
  it('should list the contexts scoped to an object, by name or id, OR across values', async () => {
    const names = async (q: string) => (await t.call('GET', `${CC}?${q}`)).body.results.map((r: { name: string }) => r.name).sort();
    assert.deepEqual(await names('location=EU'), ['eu']);
    assert.deepEqual(await names('location=EU&location=US'), ['eu', 'us']);
    assert.deepEqual(await names('role=leaf'), ['b-role']);
    assert.deepEqual(await names('tenant_group=corp'), ['a-corp']);
    assert.deepEqual(await names('tag=gold'), ['gold']);
    assertRefused(await t.call('GET', `${CC}?location=nowhere`), 400, { location: ['Select a valid choice. nowhere is not one of the available choices.'] });
  });
});

describe('config context schemas', () => {
  it('should refuse a schema that is not an object schema with properties', async () => {
    const bad = await t.call('POST', '/api/extras/config-context-schemas/', { name: 'bad', data_schema: { type: 'string' } });
    assertRefused(bad, 400, { data_schema: ['Nautobot only supports context data in the form of an object and thus the JSON schema must be of type object and specify a set of properties.'] });
    const invalid = await t.call('POST', '/api/extras/config-context-schemas/', { name: 'bad', data_schema: { type: 'object', properties: { a: { type: 'nope' } } } });
    assertRefused(invalid, 400, { data_schema: ["'/properties/a/type' must be equal to one of the allowed values"] });
  });

  it('should validate context data and local data against their schema', async () => {
    const schema = await create(t, '/api/extras/config-context-schemas/', { name: 'ntp', data_schema: { type: 'object', properties: { ntp: { type: 'string' } } } });
    assert.deepEqual(schema.custom_fields, {});
    const bad = await t.call('POST', CC, { name: 'typed', config_context_schema: schema.id, data: { ntp: 5 } });
    assertRefused(bad, 400, { data: ['Validation using the JSON Schema ntp failed.', "'/ntp' must be string"] });
    const notObject = await t.call('POST', CC, { name: 'list', data: [1] });
    assertRefused(notObject, 400, { data: ['JSON data must be in object form. Example: {"foo": 123}'] });
    assert.equal((await t.call('POST', CC, { name: 'typed', config_context_schema: schema.id, data: { ntp: '10.0.0.1' } })).status, 201);
    const local = await t.call('PATCH', `/api/dcim/devices/${d2.id}/`, { local_config_context_schema: schema.id, local_config_context_data: { ntp: [] } });
    assertRefused(local, 400, { local_config_context_data: ['Validation using the JSON Schema ntp failed.', "'/ntp' must be string"] });
    const none = await t.call('PATCH', `/api/virtualization/virtual-machines/${vm.id}/`, { local_config_context_schema: schema.id });
    assertRefused(none, 400, { local_config_context_schema: ['Local config context data must exist for a schema to be applied.'] });
    const ok = await t.call('PATCH', `/api/dcim/devices/${d2.id}/`, { local_config_context_schema: schema.id, local_config_context_data: { ntp: 'x' } });
    assert.equal(ok.status, 200, ok.raw);
    assert.equal(ok.body.config_context.ntp, 'x');
  });
});
