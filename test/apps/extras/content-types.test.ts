import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../../helpers/app.js';
import { makeUser } from '../../helpers/users.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';
import type { TestUser } from '../../helpers/users.js';

const PATH = '/api/extras/content-types/';
const NOT_PROVIDED = { detail: 'Authentication credentials were not provided.' };

let t: TestApp;
let viewer: TestUser;
let nobody: TestUser;
before(async () => {
  t = await makeApp();
  viewer = await makeUser(t, 'ct-viewer', [{ object_types: ['dcim.device'], actions: ['view', 'add'] }, { object_types: ['dcim.rack'], actions: ['view'] }]);
  nobody = await makeUser(t, 'ct-nobody');
});
after(() => t.close());

/** Every content type, in list order. */
async function all(path = `${PATH}?limit=0`, user?: TestUser): Promise<any[]> {
  const res = user ? await user.call('GET', path) : await t.call('GET', path);
  assert.equal(res.status, 200, res.raw);
  return res.body.results;
}

const labels = (rows: { app_label: string; model: string }[]) => rows.map((r) => `${r.app_label}.${r.model}`);

describe('GET /api/extras/content-types/', () => {
  it('should list one content type per registry model, ordered by app label then model', async () => {
    const rows = await all();
    const expected = t.app.services.registry.models.map((m) => m.id).sort((a, b) => {
      const [x, y] = [a.split('.'), b.split('.')];
      return x[0] === y[0] ? (x[1] < y[1] ? -1 : 1) : x[0] < y[0] ? -1 : 1;
    });
    assert.deepEqual(labels(rows), expected);
    assert.ok(labels(rows).includes('contenttypes.contenttype') && labels(rows).includes('dcim.cablepath') && labels(rows).includes('auth.group'));
  });

  it('should render integer ids and the reference keys in the reference order', async () => {
    const device = (await all(`${PATH}?app_label=dcim&model=device`))[0];
    assert.equal(typeof device.id, 'number');
    assert.deepEqual(Object.keys(device), ['id', 'object_type', 'display', 'url', 'natural_slug', 'app_label', 'model']);
    assert.equal(device.object_type, 'contenttypes.contenttype');
    assert.equal(device.display, 'dcim | device');
    assert.equal(device.url, `http://localhost:80${PATH}${device.id}/`);
    assert.equal(device.natural_slug, `dcim_device_${device.id}`);
  });

  it("should display '<app label> | <model verbose name>'", async () => {
    const displays = new Map((await all()).map((r) => [`${r.app_label}.${r.model}`, r.display]));
    assert.equal(displays.get('ipam.ipaddresstointerface'), 'ipam | IP Address Assignment');
    assert.equal(displays.get('auth.group'), 'auth | group');
    assert.equal(displays.get('contenttypes.contenttype'), 'contenttypes | content type');
    assert.equal(displays.get('users.objectpermission'), 'users | permission');
  });

  it('should answer a detail by integer id and 404 for an unknown one', async () => {
    const rack = (await all(`${PATH}?app_label=dcim&model=rack`))[0];
    const res = await t.call('GET', `${PATH}${rack.id}/`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, rack);
    assert.equal((await t.call('GET', `${PATH}99999/`)).status, 404);
    const notInteger = await t.call('GET', `${PATH}${'7'.repeat(3)}x/`);
    assert.deepEqual([notInteger.status, notInteger.body], [404, { detail: 'Not found.' }]);
    // A plain Django model in the reference: no look-up by natural key.
    const byKey = await t.call('GET', `${PATH}dcim.rack/`);
    assert.deepEqual([byKey.status, byKey.body], [404, { detail: 'Not found.' }]);
  });

  it('should be read-only', async () => {
    const id = (await all())[0].id;
    for (const [method, url] of [['POST', PATH], ['PUT', `${PATH}${id}/`], ['PATCH', `${PATH}${id}/`], ['DELETE', `${PATH}${id}/`]] as const) {
      const res = await t.call(method, url, { app_label: 'x', model: 'y' });
      assert.equal(res.status, 405, `${method} ${url}`);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
    }
    assertRefused(await nobody.call('POST', PATH, { app_label: 'x', model: 'y' }), 405, { detail: 'Method "POST" not allowed.' });
    const options = await t.call('OPTIONS', PATH);
    assert.equal(options.status, 200);
    assert.equal(options.body.name, 'Content Types');
    assert.equal(options.body.actions, undefined);
  });

  it('should let any authenticated user read them without an object permission', async () => {
    assert.equal((await all(`${PATH}?limit=0`, nobody)).length, t.app.services.registry.models.length);
    const one = (await all())[0];
    assert.equal((await nobody.call('GET', `${PATH}${one.id}/`)).status, 200);
  });

  it('should refuse an anonymous reader even when every view is exempt', async () => {
    const open = await makeApp({ exemptViewPermissions: ['*'] });
    try {
      const res = await open.call('GET', PATH, undefined, { token: null });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, NOT_PROVIDED);
      assert.equal((await open.call('GET', '/api/tenancy/tenants/', undefined, { token: null })).status, 200);
    } finally {
      await open.close();
    }
  });
});

describe('GET /api/extras/content-types/ filters', () => {
  it('should search app labels and models with q', async () => {
    assert.deepEqual(labels(await all(`${PATH}?q=DEVICETYPE`)), ['dcim.devicetype', 'dcim.devicetypetosoftwareimagefile']);
    assert.deepEqual(labels(await all(`${PATH}?q=contenttypes`)), ['contenttypes.contenttype']);
    const id = (await all(`${PATH}?app_label=tenancy&model=tenant`))[0].id;
    assert.deepEqual(labels(await all(`${PATH}?q=${id}`)).includes('tenancy.tenant'), true);
  });

  it('should filter by the caller\'s permissions with can_add, can_change, can_delete and can_view', async () => {
    assert.deepEqual(labels(await all(`${PATH}?can_add=true`, viewer)), ['dcim.device', 'users.token']);
    assert.deepEqual(labels(await all(`${PATH}?can_view=True`, viewer)), ['dcim.device', 'dcim.rack', 'users.token']);
    assert.deepEqual(labels(await all(`${PATH}?can_change=true`, viewer)), ['users.token']);
    assert.equal((await all(`${PATH}?can_view=false&limit=0`, viewer)).length, t.app.services.registry.models.length - 3);
    assert.deepEqual(labels(await all(`${PATH}?can_delete=true`, nobody)), ['users.token']);
    assert.equal((await all(`${PATH}?can_delete=true&limit=0`)).length, t.app.services.registry.models.length, 'a superuser may do anything');
  });

  it('should leave a yes/no filter out for a value Django reads as neither', async () => {
    const every = t.app.services.registry.models.length;
    for (const value of ['1', '0', 'yes', '']) assert.equal((await all(`${PATH}?can_add=${value}&limit=0`, viewer)).length, every, value);
    assert.deepEqual(labels(await all(`${PATH}?can_add=2`, viewer)), ['dcim.device', 'users.token']);
    assert.equal((await all(`${PATH}?can_add=3&limit=0`, viewer)).length, every - 2);
  });

  it('should filter by has_serializer and feature', async () => {
    assert.equal((await all(`${PATH}?has_serializer=true&limit=0`)).length, t.app.services.registry.models.length);
    assert.deepEqual(await all(`${PATH}?has_serializer=false`), []);
    const located = labels(await all(`${PATH}?feature=locations&limit=0`));
    assert.ok(located.includes('dcim.device') && located.includes('dcim.rack') && !located.includes('tenancy.tenant'), located.join());
    const cf = labels(await all(`${PATH}?feature=custom_fields&limit=0`));
    assert.ok(cf.includes('dcim.device') && !cf.includes('contenttypes.contenttype'));
    assert.deepEqual(await all(`${PATH}?feature=tags`), [], 'tags is no feature the reference names');
    assert.deepEqual(await all(`${PATH}?feature=bogus`), []);
    assert.equal((await all(`${PATH}?feature=&limit=0`)).length, t.app.services.registry.models.length);
  });

  it('should filter by id, app_label and model with their lookups', async () => {
    const [first, second] = await all(`${PATH}?limit=2`);
    assert.deepEqual((await all(`${PATH}?id=${second.id}`)).map((r) => r.id), [second.id]);
    assert.deepEqual((await all(`${PATH}?id__lte=${second.id}&limit=0`)).map((r) => r.id).sort(), [first.id, second.id].sort());
    assert.deepEqual(labels(await all(`${PATH}?app_label=tenancy`)), ['tenancy.tenant', 'tenancy.tenantgroup']);
    assert.deepEqual(labels(await all(`${PATH}?app_label=tenancy&model__ic=GROUP`)), ['tenancy.tenantgroup']);
    const res = await t.call('GET', `${PATH}?app_label__bogus=x`);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { app_label__bogus: ['Unknown filter field'] });
  });
});

describe('content types printed inside other displays', () => {
  it('should print an export template as "<app_label> | <model verbose name>: <name>", as the reference', async () => {
    const res = await t.call('POST', '/api/extras/export-templates/', { name: 'types', content_type: 'dcim.devicetype', template_code: '{{ obj }}' });
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.display, 'dcim | device type: types');
  });
});
