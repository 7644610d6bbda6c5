import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TOKEN, create, makeApp } from '../helpers/app.js';
import { Browser } from '../helpers/session.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let mediaRoot: string;
let manufacturer: any;
before(async () => {
  mediaRoot = await mkdtemp(join(tmpdir(), 'media-'));
  t = await makeApp({ mediaRoot, limits: { bodyMb: 1, bulkItems: 10000, csvRows: 10000, responseMb: 256 } });
  manufacturer = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
});
after(async () => {
  await t.close();
  await rm(mediaRoot, { recursive: true, force: true });
});

/** A PNG header of the given size (what the size reader reads; no pixel data). */
function png(width: number, height: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(33);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(data.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return data;
}

/** A JPEG with an APP0 segment before its baseline start-of-frame. */
function jpeg(width: number, height: number): Uint8Array<ArrayBuffer> {
  const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [0xff, 0xc0, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

function gif(width: number, height: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, width & 0xff, width >> 8, height & 0xff, height >> 8, 0, 0, 0]);
}

type Part = string | { name: string; data: Uint8Array<ArrayBuffer>; type?: string };

/** Sends a multipart/form-data request (encoded by the platform's FormData) with the superuser token unless `token: null`. */
async function send(method: 'POST' | 'PUT' | 'PATCH', url: string, fields: Record<string, Part>, token: string | null = TOKEN) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(key, value);
    else form.append(key, new Blob([value.data], { type: value.type ?? 'application/octet-stream' }), value.name);
  }
  const request = new Request('http://x/', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  const headers: Record<string, string> = { 'content-type': request.headers.get('content-type')!, ...(token ? { authorization: `Token ${token}` } : {}) };
  const res = await t.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, raw: res.body };
}

const files = (folder: string) => readdir(join(mediaRoot, folder)).catch(() => [] as string[]);

describe('OPTIONS parses of models with image fields', () => {
  it('should list multipart/form-data for device types and image attachments only', async () => {
    for (const path of ['/api/dcim/device-types/', '/api/extras/image-attachments/']) {
      assert.deepEqual((await t.call('OPTIONS', path)).body.parses, ['application/json', 'text/csv', 'multipart/form-data']);
    }
    assert.deepEqual((await t.call('OPTIONS', '/api/dcim/manufacturers/')).body.parses, ['application/json', 'text/csv']);
  });

  it('should document the multipart request bodies in the OpenAPI schema', async () => {
    const paths = (await t.call('GET', '/api/swagger.json')).body.paths;
    assert.deepEqual(Object.keys(paths['/dcim/device-types/'].post.requestBody.content), ['application/json', 'text/csv', 'multipart/form-data']);
    assert.deepEqual(Object.keys(paths['/dcim/device-types/{id}/'].patch.requestBody.content), ['application/json', 'text/csv', 'multipart/form-data']);
    assert.deepEqual(Object.keys(paths['/dcim/manufacturers/'].post.requestBody.content), ['application/json', 'text/csv']);
  });

  it('should refuse a multipart body for a model without image fields (415)', async () => {
    const res = await send('POST', '/api/dcim/manufacturers/', { name: 'Other' });
    assert.deepEqual([res.status, res.body], [415, { detail: 'Unsupported media type "multipart/form-data" in request.' }]);
  });
});

describe('device type images over multipart/form-data', () => {
  it('should answer a malformed multipart body with a 400', async () => {
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=zz']) {
      const res = await t.call('POST', '/api/dcim/device-types/', '{"model": "x"}', { headers: { 'content-type': type } });
      assert.equal(res.status, 400, res.raw);
      assert.match(res.body.detail, /^Multipart form parse error - /);
    }
  });

  it('should create a device type with its image, typed form fields, and serve the file', async () => {
    const image = png(40, 20);
    const res = await send('POST', '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'Box', u_height: '2', is_full_depth: 'false', front_image: { name: 'front.png', data: image, type: 'image/png' } });
    assert.equal(res.status, 201, res.raw);
    assert.match(res.body.front_image, /^http:\/\/[^/]+\/media\/devicetype-images\/front\.png$/);
    assert.deepEqual([res.body.u_height, res.body.is_full_depth, res.body.rear_image], [2, false, null]);
    const got = (await t.call('GET', `/api/dcim/device-types/${res.body.id}/`)).body;
    assert.equal(got.front_image, res.body.front_image);
    const served = await t.app.inject({ method: 'GET', url: '/media/devicetype-images/front.png', headers: { authorization: `Token ${TOKEN}` } });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.deepEqual(new Uint8Array(served.rawPayload), image);
  });

  it('should serve files only to authenticated users (others to log in), and no path outside the media folder', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/media/devicetype-images/front.png' });
    assert.deepEqual([anonymous.statusCode, anonymous.headers.location], [302, '/login/?next=/media/devicetype-images/front.png']);
    assert.equal((await t.app.inject({ method: 'GET', url: '/media/devicetype-images/front.png', headers: { authorization: 'Token 0000000000000000000000000000000000000000' } })).statusCode, 403);
    const browser = new Browser(t);
    await browser.login();
    const viaSession = await browser.get('/media/devicetype-images/front.png');
    assert.deepEqual([viaSession.status, viaSession.headers['content-type']], [200, 'image/png']);
    for (const url of ['/media/devicetype-images/missing.png', '/media/devicetype-images/', '/media/..%2f..%2fetc%2fpasswd']) {
      assert.equal((await t.app.inject({ method: 'GET', url, headers: { authorization: `Token ${TOKEN}` } })).statusCode, 404, url);
    }
    // A malformed escape is the router's 400, as on every path.
    assert.equal((await t.app.inject({ method: 'GET', url: '/media/%E0%A4%A', headers: { authorization: `Token ${TOKEN}` } })).statusCode, 400);
  });

  it('should keep both files when two uploads share a name, and strip paths from file names', async () => {
    const a = await send('POST', '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'Twin', rear_image: { name: 'front.png', data: png(1, 1) } });
    assert.equal(a.status, 201, a.raw);
    assert.match(a.body.rear_image, /\/media\/devicetype-images\/front_[0-9a-f]{7}\.png$/);
    const b = await send('PATCH', `/api/dcim/device-types/${a.body.id}/`, { front_image: { name: '../../../escape me.png', data: png(2, 2) } });
    assert.equal(b.status, 200, b.raw);
    assert.match(b.body.front_image, /\/media\/devicetype-images\/escape_me\.png$/);
    assert.ok((await files('devicetype-images')).includes('escape_me.png'));
  });

  it('should refuse a file that is not an image, an empty file and text in an image field, storing nothing', async () => {
    const before = (await files('devicetype-images')).length;
    const bad = await send('POST', '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'Bad', front_image: { name: 'x.png', data: new TextEncoder().encode('not an image') }, rear_image: { name: 'y.png', data: new Uint8Array() } });
    assert.deepEqual([bad.status, bad.body], [400, {
      front_image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
      rear_image: ['The submitted file is empty.'],
    }]);
    const text = await send('POST', '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'Bad', front_image: 'front.png' });
    assert.deepEqual([text.status, text.body], [400, { front_image: ['The submitted data was not a file. Check the encoding type on the form.'] }]);
    assert.equal((await files('devicetype-images')).length, before);
  });

  it('should remove the stored file when the write itself fails', async () => {
    const before = (await files('devicetype-images')).length;
    const res = await send('POST', '/api/dcim/device-types/', { model: 'No maker', front_image: { name: 'orphan.png', data: png(3, 3) } });
    assert.deepEqual([res.status, res.body], [400, { manufacturer: ['This field is required.'] }]);
    assert.equal((await files('devicetype-images')).length, before);
  });

  it('should refuse an oversize body with 413', async () => {
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(png(1, 1));
    const res = await send('POST', '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'Huge', front_image: { name: 'huge.png', data: big } });
    assert.equal(res.status, 413, res.raw);
  });
});

describe('image attachments over multipart/form-data', () => {
  it('should store the image and its height and width, and update them with a new image', async () => {
    const type = await create(t, '/api/dcim/location-types/', { name: 'Site' });
    const location = await create(t, '/api/dcim/locations/', { name: 'HQ', location_type: type.id, status: 'Active' });
    const res = await send('POST', '/api/extras/image-attachments/', { content_type: 'dcim.location', object_id: location.id, name: 'Front', image: { name: 'photo.jpg', data: jpeg(640, 480) } });
    assert.equal(res.status, 201, res.raw);
    assert.match(res.body.image, /\/media\/image-attachments\/photo\.jpg$/);
    assert.deepEqual([res.body.image_width, res.body.image_height], [640, 480]);
    const changed = await send('PATCH', `/api/extras/image-attachments/${res.body.id}/`, { image: { name: 'plan.gif', data: gif(300, 200) } });
    assert.equal(changed.status, 200, changed.raw);
    assert.deepEqual([changed.body.image_width, changed.body.image_height, changed.body.name], [300, 200, 'Front']);
    const served = await t.app.inject({ method: 'GET', url: '/media/image-attachments/plan.gif', headers: { authorization: `Token ${TOKEN}` } });
    assert.deepEqual([served.statusCode, served.headers['content-type']], [200, 'image/gif']);
    // The replaced file is gone, as the reference deletes it; deleting the attachment deletes its file.
    assert.deepEqual((await files('image-attachments')).sort(), ['plan.gif']);
    assert.equal((await t.call('DELETE', `/api/extras/image-attachments/${res.body.id}/`)).status, 204);
    assert.deepEqual(await files('image-attachments'), []);
  });
});

describe('stored files of rows written and deleted', () => {
  it('should delete a device type\'s files when it is deleted (bulk too) or its image is cleared, and keep a file another row names', async () => {
    const made = await send('POST', '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'Kept', front_image: { name: 'kept-front.png', data: png(1, 1) }, rear_image: { name: 'kept-rear.png', data: png(1, 1) } });
    assert.equal(made.status, 201, made.raw);
    const sharer = await create(t, '/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'Sharer', rear_image: 'devicetype-images/kept-rear.png' });
    const cleared = await send('PATCH', `/api/dcim/device-types/${made.body.id}/`, { front_image: '' });
    assert.deepEqual([cleared.status, cleared.body.front_image], [200, null], cleared.raw);
    assert.deepEqual((await files('devicetype-images')).filter((f) => f.startsWith('kept-')), ['kept-rear.png']);
    assert.equal((await t.call('DELETE', '/api/dcim/device-types/', [{ id: made.body.id }])).status, 204);
    // The sharer still names kept-rear.png: it stays until the sharer goes.
    assert.deepEqual((await files('devicetype-images')).filter((f) => f.startsWith('kept-')), ['kept-rear.png']);
    assert.equal((await t.call('DELETE', `/api/dcim/device-types/${sharer.id}/`)).status, 204);
    assert.deepEqual((await files('devicetype-images')).filter((f) => f.startsWith('kept-')), []);
  });
});
