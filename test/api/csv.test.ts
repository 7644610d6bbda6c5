import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { openRowBatches } from '../../src/ops/export.js';
import { listRows } from '../../src/ops/read.js';
import { create, makeApp } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';
import type { RequestContext } from '../../src/ops/services.js';

const CSV_IN = { 'content-type': 'text/csv' };
const CSV_OUT = { accept: 'text/csv' };

/** CSV text -> header and rows of cells. */
function table(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header = [], ...rows] = parse(text, { relax_column_count: true }) as string[][];
  return { header, rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}

let t: TestApp;
let ids: Record<string, string>;

/** Regions -> sites -> rooms, two tenants in a group tree, tags. */
async function seed(app: TestApp): Promise<Record<string, string>> {
  await create(app, '/api/extras/tags/', [{ name: 'red', content_types: ['tenancy.tenant', 'dcim.location', 'dcim.device'] }, { name: 'blue', content_types: ['dcim.location', 'tenancy.tenant'] }]);
  await create(app, '/api/dcim/location-types/', [{ name: 'Region', nestable: true, content_types: ['dcim.location'] }]);
  await create(app, '/api/dcim/location-types/', [{ name: 'Site', parent: 'Region', content_types: ['dcim.location', 'dcim.device'], description: 'a "site", really' }]);
  const [top] = await create(app, '/api/tenancy/tenant-groups/', [{ name: 'Top' }]);
  await create(app, '/api/tenancy/tenant-groups/', [{ name: 'Child', parent: top.id }]);
  const [acme] = await create(app, '/api/tenancy/tenants/', [{ name: 'Acme', tenant_group: 'Child', tags: ['red', 'blue'] }, { name: 'Solo', comments: 'line one\nline two' }]);
  const [eu] = await create(app, '/api/dcim/locations/', [{ name: 'Europe', location_type: 'Region', status: 'Active' }]);
  const [fr] = await create(app, '/api/dcim/locations/', [{ name: 'France', location_type: 'Region', status: 'Active', parent: eu.id, asn: 65001, tags: ['red'] }]);
  const [paris] = await create(app, '/api/dcim/locations/', [{ name: 'Paris', location_type: 'Site', status: 'Planned', parent: fr.id, tenant: acme.id, latitude: 48.8566, time_zone: 'Europe/Paris' }]);
  await create(app, '/api/dcim/locations/', [{ name: 'tmp-lab', location_type: 'Site', status: 'Active', parent: fr.id }]);
  await create(app, '/api/dcim/manufacturers/', [{ name: 'Acme Networks' }]);
  await create(app, '/api/dcim/device-types/', [{ manufacturer: 'Acme Networks', model: 'X1', u_height: 2 }]);
  await create(app, '/api/extras/roles/', [{ name: 'Router', content_types: ['dcim.device'] }]);
  await create(app, '/api/dcim/devices/', [{ name: 'edge1', device_type: { manufacturer: { name: 'Acme Networks' }, model: 'X1' }, role: 'Router', status: 'Active', location: paris.id, tenant: acme.id, serial: 'S-1', local_config_context_data: { ntp: ['192.0.2.1'] }, tags: ['red'] }]);
  return { eu: eu.id, fr: fr.id, paris: paris.id, acme: acme.id };
}

before(async () => {
  t = await makeApp();
  ids = await seed(t);
});
after(() => t.close());

describe('GET /api/dcim/locations/?format=csv', () => {
  it('should send text/csv with the reference download name', async () => {
    const res = await t.call('GET', '/api/dcim/locations/?format=csv');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/csv; charset=UTF-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="nautobot_location_data.csv"');
  });

  it('should put name, display and id first and drop url, notes_url and custom_fields', async () => {
    const { header } = table((await t.call('GET', '/api/dcim/locations/', undefined, { headers: CSV_OUT })).raw);
    assert.deepEqual(header.slice(0, 3), ['name', 'display', 'id']);
    for (const gone of ['url', 'notes_url', 'custom_fields', 'parent', 'status', 'tenant']) assert.ok(!header.includes(gone), gone);
  });

  it('should replace FKs by natural-key columns, trees as deep as the data', async () => {
    const { header, rows } = table((await t.call('GET', '/api/dcim/locations/?format=csv')).raw);
    for (const col of ['parent__name', 'parent__parent__name', 'parent__parent__parent__name', 'location_type__name', 'status__name', 'tenant__name']) assert.ok(header.includes(col), col);
    assert.ok(!header.includes('parent__parent__parent__parent__name'));
    const paris = rows.find((r) => r.name === 'Paris')!;
    assert.deepEqual([paris.parent__name, paris.parent__parent__name, paris.parent__parent__parent__name], ['France', 'Europe', 'NoObject']);
    assert.equal(paris.status__name, 'Planned');
    assert.equal(paris.tenant__name, 'Acme');
    assert.equal(paris.display, 'Europe → France → Paris');
  });

  it('should write NoObject for missing objects, NULL for null scalars, empty for empty strings', async () => {
    const { rows } = table((await t.call('GET', '/api/dcim/locations/?format=csv')).raw);
    const europe = rows.find((r) => r.name === 'Europe')!;
    assert.equal(europe.parent__name, 'NoObject');
    assert.equal(europe.tenant__name, 'NoObject');
    assert.equal(europe.asn, 'NULL');
    assert.equal(europe.description, '');
    assert.equal(rows.find((r) => r.name === 'Paris')!.latitude, '48.856600');
  });

  it('should join tags by name and content types by label', async () => {
    const tenants = table((await t.call('GET', '/api/tenancy/tenants/?format=csv')).raw).rows;
    assert.equal(tenants.find((r) => r.name === 'Acme')!.tags, 'blue,red');
    const types = table((await t.call('GET', '/api/extras/tags/?format=csv')).raw).rows;
    assert.deepEqual(types.map((r) => r.content_types), ['dcim.location,tenancy.tenant', 'dcim.device,dcim.location,tenancy.tenant']);
  });

  it('should render booleans as the reference (True/False)', async () => {
    const { rows } = table((await t.call('GET', '/api/dcim/location-types/?format=csv')).raw);
    assert.deepEqual(rows.map((r) => [r.name, r.nestable]), [['Region', 'True'], ['Site', 'False']]);
  });

  it('should export the whole filtered result, ignoring limit and offset', async () => {
    const { rows } = table((await t.call('GET', '/api/dcim/locations/?format=csv&limit=1&offset=1&status=Active&sort=-name')).raw);
    assert.deepEqual(rows.map((r) => r.name), ['tmp-lab', 'France', 'Europe']);
  });

  it('should send an empty body for an empty result', async () => {
    const res = await t.call('GET', '/api/dcim/locations/?format=csv&name=nowhere');
    assert.equal(res.status, 200);
    assert.equal(res.raw, '');
  });

  it('should render a detail as one row', async () => {
    const { rows } = table((await t.call('GET', `/api/dcim/locations/${ids.paris}/`, undefined, { headers: CSV_OUT })).raw);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].id, ids.paris);
  });

  it('should render errors as CSV when CSV was negotiated', async () => {
    const res = await t.call('GET', '/api/dcim/locations/?format=csv&bogus=1');
    assert.equal(res.status, 400);
    assert.equal(res.headers['content-type'], 'text/csv; charset=UTF-8');
    assert.equal(res.raw, 'bogus\r\nUnknown filter field\r\n');
  });
});

describe('openRowBatches (keyset export reader)', () => {
  const rc: RequestContext = { actor: null, requestId: 'test', baseUrl: 'http://x', routeName: '' };

  it('should read every row once, in the list order, across small batches and null sort keys', async () => {
    const { services } = t.app;
    const model = services.registry.get('dcim.location');
    for (const sort of [undefined, 'asn', '-asn', 'parent,-name', '-tenant']) {
      const params = new Map<string, string[]>();
      const expected = (await listRows(services, rc, model, { params, limit: null, offset: 0, sort })).rows.map((r) => r.id);
      for (const [batchSize, keysetRows] of [[1, undefined], [2, 3]]) {
        const got: string[] = [];
        const sizes: number[] = [];
        for await (const batch of await openRowBatches(services, rc, model, { params, sort, batchSize, keysetRows })) {
          got.push(...batch.map((r) => r.id));
          sizes.push(batch.length);
        }
        assert.deepEqual(got, expected, `${sort} by ${batchSize} (${keysetRows})`);
        assert.ok(sizes.every((n) => n >= 1 && n <= (batchSize as number)), `batches of at most ${batchSize}: ${sizes.join(',')}`);
      }
    }
  });
});

describe('POST /api/dcim/locations/ with text/csv', () => {
  it('should create one object per row and answer a JSON list', async () => {
    const csv = 'name,location_type__name,status__name,parent__name,parent__parent__name,tags,asn,description\r\nLyon,Site,Active,France,Europe,"red,blue",NULL,"a, b"\r\n';
    const res = await t.call('POST', '/api/dcim/locations/', csv, { headers: CSV_IN });
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.length, 1);
    assert.equal(res.body[0].parent.id, ids.fr);
    assert.equal(res.body[0].asn, null);
    assert.equal(res.body[0].description, 'a, b');
    assert.equal(res.body[0].tags.length, 2);
  });

  it('should answer CSV when CSV is accepted', async () => {
    const res = await t.call('POST', '/api/tenancy/tenants/', 'name,tenant_group__name\r\nNew,NoObject\r\n', { headers: { ...CSV_IN, ...CSV_OUT } });
    assert.equal(res.status, 201);
    assert.equal(table(res.raw).rows[0].tenant_group__name, 'NoObject');
  });

  it('should create nothing when one row fails, with errors in list shape', async () => {
    const csv = 'name,location_type__name,status__name,parent__name\r\nOk,Region,Active,NoObject\r\nBad,Region,Active,Atlantis\r\n';
    const res = await t.call('POST', '/api/dcim/locations/', csv, { headers: CSV_IN });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body[0], {});
    assert.match(res.body[1].parent[0], /Related object not found using the provided attributes: \{'name': 'Atlantis'/);
    assert.equal((await t.call('GET', '/api/dcim/locations/?name=Ok')).body.count, 0);
  });

  it('should number rows in CSV error bodies', async () => {
    const csv = 'name,location_type__name,status__name\r\nLisbon,Region,Active\r\nRome,Nowhere,Active\r\n';
    const res = await t.call('POST', '/api/dcim/locations/', csv, { headers: { ...CSV_IN, ...CSV_OUT } });
    assert.equal(res.status, 400);
    const { header, rows } = table(res.raw);
    assert.deepEqual(header, ['row', 'location_type']);
    assert.deepEqual(rows.map((r) => r.row), ['1', '2']);
  });

  it('should refuse a column with no header, and columns CSV cannot carry', async () => {
    const blank = await t.call('POST', '/api/tenancy/tenants/', 'name,\r\nX,1\r\n', { headers: CSV_IN });
    assert.deepEqual([blank.status, blank.body], [400, { detail: 'Row 1: Column 2: missing/empty header for this column' }]);
    const rel = await t.call('POST', '/api/tenancy/tenants/', 'name,relationships\r\nX,{}\r\n', { headers: CSV_IN });
    assert.equal(rel.status, 400);
    assert.match(rel.body.detail, /^Column "relationships" cannot be imported from CSV/);
  });

  it('should ignore unknown and read-only columns', async () => {
    const res = await t.call('POST', '/api/tenancy/tenants/', 'name,display,bogus,created\r\nIgnored,x,y,2000-01-01\r\n', { headers: CSV_IN });
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body[0].display, 'Ignored');
  });
});

describe('PUT/PATCH with text/csv', () => {
  it('should update a list by the id column', async () => {
    const res = await t.call('PATCH', '/api/dcim/locations/', `id,description\r\n${ids.eu},continent\r\n${ids.fr},country\r\n`, { headers: CSV_IN });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.map((o: any) => o.description), ['continent', 'country']);
  });

  it('should update one object from a one-row detail body', async () => {
    const res = await t.call('PATCH', `/api/tenancy/tenants/${ids.acme}/`, 'description,tenant_group__name\r\nupdated,Top\r\n', { headers: CSV_IN });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.description, 'updated');
    assert.equal(res.body.tenant_group.object_type, 'tenancy.tenantgroup');
  });
});

/** Rows of a CSV grouped by tree depth, each group a CSV document (parents must exist first). */
function waves(text: string): string[] {
  const [header, ...rows] = parse(text) as string[][];
  const at = header.indexOf('tree_depth');
  const depths = [...new Set(rows.map((r) => Number(r[at] ?? 0)))].sort();
  const line = (cells: string[]) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(',');
  return depths.map((d) => [header, ...rows.filter((r) => Number(r[at] ?? 0) === d)].map(line).join('\r\n'));
}

/** A CSV without the columns the server sets on write (timestamps). */
function withoutTimestamps(text: string): string[][] {
  const [header, ...rows] = parse(text) as string[][];
  const keep = header.map((h, i) => (h === 'created' || h === 'last_updated' ? -1 : i)).filter((i) => i >= 0);
  return [header, ...rows].map((r) => keep.map((i) => r[i]));
}

describe('CSV round trip', () => {
  const lists = [
    '/api/extras/tags/?format=csv',
    '/api/extras/roles/?format=csv&name=Router',
    '/api/dcim/location-types/?format=csv',
    '/api/tenancy/tenant-groups/?format=csv',
    '/api/tenancy/tenants/?format=csv&name__n=Ignored',
    '/api/dcim/locations/?format=csv&name__nisw=tmp',
    '/api/dcim/manufacturers/?format=csv',
    '/api/dcim/device-types/?format=csv',
    '/api/dcim/devices/?format=csv',
  ];

  it('should export, import into an empty database and export the same CSV again', async () => {
    const target = await makeApp();
    try {
      const exported = new Map<string, string>();
      for (const url of lists) {
        exported.set(url, (await t.call('GET', url)).raw);
        for (const wave of waves(exported.get(url)!)) {
          const res = await target.call('POST', url.split('?')[0], wave, { headers: CSV_IN });
          assert.equal(res.status, 201, `${url}: ${res.raw}`);
        }
      }
      for (const [url, first] of exported) {
        const second = (await target.call('GET', url)).raw;
        assert.deepEqual(withoutTimestamps(second), withoutTimestamps(first), url);
      }
    } finally {
      await target.close();
    }
  });
});
