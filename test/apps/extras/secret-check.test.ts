import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../../helpers/app.js';
import { assertRefused } from '../../helpers/refusals.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
let dir: string;
before(async () => {
  t = await makeApp();
  dir = await mkdtemp(path.join(tmpdir(), 'secret-check-'));
  process.env.NETSOT_TEST_SECRET = 'hunter2';
});
after(() => t.close());

async function check(secret: { id: string }) {
  const res = await t.call('GET', `/api/extras/secrets/${secret.id}/check/`);
  assert.equal(res.status, 200);
  return res.body;
}

describe('GET /api/extras/secrets/{id}/check/', () => {
  it('should pass for a set environment variable without sending the value', async () => {
    const s = await create(t, '/api/extras/secrets/', { name: 'env-ok', provider: 'environment-variable', parameters: { variable: 'NETSOT_TEST_SECRET' } });
    const res = await t.call('GET', `/api/extras/secrets/${s.id}/check/`);
    assert.deepEqual(res.body, { result: true, message: 'Passed' });
    assert.equal(res.raw.includes('hunter2'), false);
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
  });

  it("should report an unset variable and a missing parameter in the reference's words", async () => {
    const unset = await create(t, '/api/extras/secrets/', { name: 'env-unset', provider: 'environment-variable', parameters: { variable: 'NETSOT_NO_SUCH_VARIABLE' } });
    assert.deepEqual(await check(unset), { result: false, message: 'SecretValueNotFoundError: Secret "env-unset" (provider "EnvironmentVariableSecretsProvider"): Undefined environment variable "NETSOT_NO_SUCH_VARIABLE"!' });
    const bare = await create(t, '/api/extras/secrets/', { name: 'env-bare', provider: 'environment-variable', parameters: {} });
    assert.deepEqual(await check(bare), { result: false, message: 'SecretParametersError: Secret "env-bare" (provider "EnvironmentVariableSecretsProvider"): The "variable" parameter is mandatory!' });
  });

  it('should read a text file, trimmed, and report a missing one', async () => {
    const file = path.join(dir, 'token.txt');
    await writeFile(file, '  s3cret\n');
    const ok = await create(t, '/api/extras/secrets/', { name: 'file-ok', provider: 'text-file', parameters: { path: file } });
    assert.deepEqual(await check(ok), { result: true, message: 'Passed' });
    const missing = await create(t, '/api/extras/secrets/', { name: 'file-missing', provider: 'text-file', parameters: { path: `${dir}/nope.txt` } });
    assert.deepEqual(await check(missing), { result: false, message: `SecretValueNotFoundError: Secret "file-missing" (provider "TextFileSecretsProvider"): File "${dir}/nope.txt" not found!` });
  });

  it('should render parameters as templates', async () => {
    const s = await create(t, '/api/extras/secrets/', { name: 'env-template', provider: 'environment-variable', parameters: { variable: 'NETSOT_TEST_{{ "SECRET" }}' } });
    assert.deepEqual(await check(s), { result: true, message: 'Passed' });
  });

  it('should answer 404 for an unknown secret and 405 for writes', async () => {
    assert.equal((await t.call('GET', '/api/extras/secrets/00000000-0000-0000-0000-000000000000/check/')).status, 404);
    const s = await create(t, '/api/extras/secrets/', { name: 'env-405', provider: 'environment-variable', parameters: { variable: 'X' } });
    assert.equal((await t.call('POST', `/api/extras/secrets/${s.id}/check/`, {})).status, 405);
  });
});

describe('POST /api/extras/secrets/ provider checks', () => {
  it('should refuse an unknown provider naming the field', async () => {
    assertRefused(await t.call('POST', '/api/extras/secrets/', { name: 'bad', provider: 'vault', parameters: {} }), 400, { provider: ['No registered provider "vault" is available'] });
  });

  it('should refuse a relative or climbing text-file path', async () => {
    assertRefused(await t.call('POST', '/api/extras/secrets/', { name: 'rel', provider: 'text-file', parameters: { path: 'etc/x' } }), 400, { __all__: ['Path must be an absolute path, not a relative one'] });
    assertRefused(await t.call('POST', '/api/extras/secrets/', { name: 'climb', provider: 'text-file', parameters: { path: '/etc/../x' } }), 400, { __all__: ['Illegal character sequence in path'] });
  });
});
