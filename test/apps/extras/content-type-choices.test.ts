import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

// Choice lists as the reference's OPTIONS shows them (wire captures of the extras models).
let t: TestApp;
before(async () => { t = await makeApp(); });
after(() => t.close());

async function choices(path: string, field: string): Promise<string[]> {
  const res = await t.call('OPTIONS', path);
  assert.equal(res.status, 200, res.raw);
  return res.body.actions.POST[field].choices.map((c: { value: string }) => c.value).sort();
}

describe('OPTIONS content-type choices of extras models', () => {
  it('should offer only Git repositories as owners of config contexts, schemas, export templates and GraphQL queries', async () => {
    for (const path of ['config-contexts', 'config-context-schemas', 'export-templates', 'graphql-queries']) {
      assert.deepEqual(await choices(`/api/extras/${path}/`, 'owner_content_type'), ['extras.gitrepository'], path);
    }
  });

  it('should list the five content kinds a Git repository may provide', async () => {
    assert.deepEqual(await choices('/api/extras/git-repositories/', 'provided_contents'), [
      'extras.configcontext', 'extras.configcontextschema', 'extras.exporttemplate', 'extras.graphqlquery', 'extras.job',
    ]);
  });

  it('should allow image attachments on devices, locations and racks only', async () => {
    assert.deepEqual(await choices('/api/extras/image-attachments/', 'content_type'), ['dcim.device', 'dcim.location', 'dcim.rack']);
  });

  it('should offer relationship associations the content types relationships offer', async () => {
    const types = await choices('/api/extras/relationships/', 'source_type');
    assert.ok(types.includes('dcim.device') && !types.includes('extras.objectchange'));
    for (const field of ['source_type', 'destination_type']) assert.deepEqual(await choices('/api/extras/relationship-associations/', field), types, field);
  });

  it('should let object changes carry metadata', async () => {
    assert.ok((await choices('/api/extras/object-metadata/', 'assigned_object_type')).includes('extras.objectchange'));
  });
});

describe('writes outside the offered content types', () => {
  it('should refuse an image attachment on an interface and a config context owned by a device', async () => {
    const image = await t.call('POST', '/api/extras/image-attachments/', { content_type: 'dcim.interface', object_id: '3f0c9a6e-1b7c-4c55-9d5e-0a1b2c3d4e5f', name: 'x' });
    assert.equal(image.status, 400);
    assert.deepEqual(image.body.content_type, ['Invalid content type: dcim.interface']);
    const context = await t.call('POST', '/api/extras/config-contexts/', { name: 'cc', data: {}, owner_content_type: 'dcim.device' });
    assert.equal(context.status, 400);
    assert.deepEqual(context.body, { owner_content_type: ['Invalid content type: dcim.device'] });
  });
});

describe('POST /api/extras/git-repositories/', () => {
  it('should store provided_contents sorted without duplicates and refuse other values', async () => {
    const made = await t.call('POST', '/api/extras/git-repositories/', { name: 'Site Configs', remote_url: 'https://example.com/a.git', provided_contents: ['extras.job', 'extras.configcontext', 'extras.job'] });
    assert.equal(made.status, 201, made.raw);
    assert.deepEqual(made.body.provided_contents, ['extras.configcontext', 'extras.job']);
    const bad = await t.call('POST', '/api/extras/git-repositories/', { name: 'other', remote_url: 'https://example.com/b.git', provided_contents: ['dcim.device'] });
    assert.deepEqual([bad.status, bad.body], [400, { provided_contents: ['"dcim.device" is not a valid choice.'] }]);
  });

  it('should fill an omitted slug from the name with underscores, so two repositories may omit it', async () => {
    const made = await t.call('POST', '/api/extras/git-repositories/', [
      { name: 'My Repo-1', remote_url: 'https://example.com/c.git' },
      { name: 'second', remote_url: 'https://example.com/d.git' },
    ]);
    assert.equal(made.status, 201, made.raw);
    assert.deepEqual(made.body.map((r: { slug: string }) => r.slug), ['my_repo_1', 'second']);
  });
});

describe('/api/extras/jobs/', () => {
  it('should offer PUT but not POST in OPTIONS, as jobs come from installed code', async () => {
    const res = await t.call('OPTIONS', '/api/extras/jobs/');
    assert.deepEqual(Object.keys(res.body.actions), ['PUT']);
    assert.equal(res.body.actions.PUT.name.required, true);
  });

  it('should answer POST with 405 and the methods the list allows', async () => {
    const res = await t.call('POST', '/api/extras/jobs/', { name: 'x', grouping: 'g' });
    assert.equal(res.status, 405);
    assert.deepEqual(res.body, { detail: 'Method "POST" not allowed.' });
    assert.equal(res.headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    assert.equal((await t.call('GET', '/api/extras/jobs/')).headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
  });
});
