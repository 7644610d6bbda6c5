import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, mkdirSync, readFile, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
const dir = mkdtempSync(path.join(tmpdir(), 'git-contents-'));
const origin = path.join(dir, 'origin');
const bare = path.join(dir, 'served.git');
/** A loopback dumb-HTTP git server serving the bare repository (there is no network here). */
const server = createServer((req, res) => readFile(path.join(bare, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)), (err, body) => {
  res.statusCode = err ? 404 : 200;
  res.end(err ? '' : body);
}));
const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
const git = (...args: string[]) => execFileSync('git', ['-C', origin, ...args], { env });
function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(origin, file)), { recursive: true });
  writeFileSync(path.join(origin, file), text);
}
/** Commits everything in the origin and publishes it to the served repository. */
function commit(message: string): void {
  git('add', '-A');
  git('commit', '--quiet', '-m', message);
  execFileSync('git', ['-C', origin, 'push', '--quiet', '--force', bare, 'main']);
  execFileSync('git', ['-C', bare, 'update-server-info']);
}

let repoId = '';

before(async () => {
  execFileSync('git', ['init', '--quiet', '--initial-branch', 'main', origin]);
  write('config_context_schemas/ntp.yaml', '_metadata:\n  name: ntp-schema\n  description: NTP servers\ndata_schema:\n  type: object\n  properties:\n    ntp:\n      type: array\n');
  write('config_contexts/ntp.json', JSON.stringify({ _metadata: { name: 'ntp', weight: 100, config_context_schema: 'ntp-schema' }, ntp: ['10.0.0.1'] }));
  write('export_templates/dcim/device/names.txt', '{% for d in queryset %}{{ d.name }}\n{% endfor %}');
  write('export_templates/dcim/location/names.csv', 'name\n');
  write('graphql_queries/devices.gql', 'query { devices { name } }\n');
  write('jobs/hello.ts', "export const Hello = { meta: { name: 'Hello from Git', has_sensitive_variables: false }, async run(ctx: any) { await ctx.logger.info('hello'); return 42; } };\n");
  write('jobs/legacy.py', 'from nautobot.apps.jobs import Job\n');
  write('dcim/device/misplaced.txt', 'not under export_templates/');
  execFileSync('git', ['init', '--quiet', '--bare', bare]);
  commit('first');
  await new Promise<void>((resolve) => server.listen(9182, '127.0.0.1', resolve));
  t = await makeJobsApp({ jobs: { gitRoot: path.join(dir, 'clones') } });
  const repo = await t.call('POST', '/api/extras/git-repositories/', {
    name: 'Contents', slug: 'contents', remote_url: 'http://127.0.0.1:9182/', branch: 'main',
    provided_contents: ['extras.configcontextschema', 'extras.configcontext', 'extras.exporttemplate', 'extras.graphqlquery', 'extras.job'],
  });
  assert.equal(repo.status, 201, repo.raw);
  repoId = repo.body.id;
});
after(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Syncs the repository and answers its job result and log messages. */
async function sync() {
  const res = await t.call('POST', `/api/extras/git-repositories/${repoId}/sync/`);
  assert.equal(res.status, 200, res.raw);
  await t.idle();
  const result = (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
  const logs = (await t.call('GET', `/api/extras/job-results/${result.id}/logs/`)).body;
  return { result, messages: (logs.results ?? logs).map((l: any) => `${l.log_level?.value ?? l.log_level}: ${l.message}`) as string[] };
}
const owned = async (path_: string) => (await t.call('GET', `/api/extras/${path_}/?owner_object_id=${repoId}`)).body.results;

describe('Git repository contents', () => {
  it('should load schemas, contexts, export templates, GraphQL queries and TS jobs, skipping Python job files with a warning', async () => {
    const { result, messages } = await sync();
    assert.equal(result.status.value, 'SUCCESS', messages.join('\n'));
    assert.deepEqual((await owned('config-context-schemas')).map((s: any) => s.name), ['ntp-schema']);
    const [context] = await owned('config-contexts');
    assert.equal(context.name, 'ntp');
    assert.equal(context.config_context_schema.id, (await owned('config-context-schemas'))[0].id);
    assert.deepEqual(context.data, { ntp: ['10.0.0.1'] });
    const templates = await owned('export-templates');
    assert.deepEqual(templates.map((x: any) => [x.content_type, x.name, x.mime_type, x.file_extension]).sort(), [['dcim.device', 'names.txt', 'text/plain', 'txt'], ['dcim.location', 'names.csv', 'text/csv', 'csv']]);
    assert.deepEqual((await owned('graphql-queries')).map((q: any) => [q.name, q.query]), [['devices', 'query { devices { name } }']]);
    assert.ok(messages.some((m) => m.startsWith('warning:') && m.includes('jobs/legacy.py')), messages.join('\n'));
    assert.ok(messages.includes('warning: Found "dcim" directory in the repository root. If this is meant to contain export templates, it should be moved into an `export_templates/` subdirectory.'), messages.join('\n'));
    const job = await t.job('Hello from Git');
    assert.equal(job.module_name, 'contents.jobs.hello');
    assert.equal(job.job_class_name, 'Hello');
    assert.equal(job.installed, true);
    const run = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data: {} });
    assert.equal(run.status, 201, run.raw);
    await t.idle();
    const ran = (await t.call('GET', `/api/extras/job-results/${run.body.job_result.id}/`)).body;
    assert.equal(ran.status.value, 'SUCCESS', JSON.stringify(ran));
    assert.equal(ran.result, 42);
  });

  it('should fail a sync with a broken file, naming it, and leave the previous content in place', async () => {
    write('graphql_queries/broken.gql', 'query { devices { name }\n');
    rmSync(path.join(origin, 'export_templates/dcim/location'), { recursive: true });
    commit('broken query');
    const { result, messages } = await sync();
    assert.equal(result.status.value, 'FAILURE');
    assert.ok(messages.some((m) => m.startsWith('error:') && m.includes("'broken.gql'") && m.includes('Invalid GraphQL syntax')), messages.join('\n'));
    assert.equal((await owned('export-templates')).length, 2);
    assert.deepEqual((await owned('graphql-queries')).map((q: any) => q.name), ['devices']);
  });

  it('should update and remove the owned objects on the next good sync, and uninstall the jobs it no longer provides', async () => {
    rmSync(path.join(origin, 'graphql_queries/broken.gql'));
    write('graphql_queries/devices.gql', 'query { devices { name serial } }');
    write('config_contexts/ntp.json', JSON.stringify({ _metadata: { name: 'ntp', weight: 100 }, ntp: ['10.0.0.2'] }));
    rmSync(path.join(origin, 'jobs/hello.ts'));
    commit('second');
    const { result, messages } = await sync();
    assert.equal(result.status.value, 'SUCCESS', messages.join('\n'));
    assert.deepEqual((await owned('export-templates')).map((x: any) => x.name), ['names.txt']);
    assert.deepEqual((await owned('graphql-queries')).map((q: any) => q.query), ['query { devices { name serial } }']);
    const [context] = await owned('config-contexts');
    assert.deepEqual([context.data, context.config_context_schema], [{ ntp: ['10.0.0.2'] }, null]);
    assert.equal((await t.job('Hello from Git', { enable: false })).installed, false);
  });

  it('should set and clear the local config context of a device named by config_contexts/devices/<name>', async () => {
    const post = async (path_: string, body: unknown) => {
      const res = await t.call('POST', `/api/${path_}/`, body);
      assert.equal(res.status, 201, res.raw);
      return res.body;
    };
    const status = (await t.call('GET', '/api/extras/statuses/?name=Active')).body.results[0].id;
    const locationType = await post('dcim/location-types', { name: 'Site', content_types: ['dcim.device'] });
    const location = await post('dcim/locations', { name: 'Here', location_type: locationType.id, status });
    const deviceType = await post('dcim/device-types', { model: 'Box', manufacturer: (await post('dcim/manufacturers', { name: 'Acme' })).id });
    const role = await post('extras/roles', { name: 'Edge', content_types: ['dcim.device'] });
    const device = await post('dcim/devices', { name: 'edge-1', device_type: deviceType.id, role: role.id, status, location: location.id });
    write('config_contexts/devices/edge-1.yaml', 'snmp:\n  community: public\n');
    commit('local context');
    const first = await sync();
    assert.equal(first.result.status.value, 'SUCCESS', first.messages.join('\n'));
    const read = async () => (await t.call('GET', `/api/dcim/devices/${device.id}/`)).body;
    assert.deepEqual((await read()).local_config_context_data, { snmp: { community: 'public' } });
    assert.equal((await read()).local_config_context_data_owner_object_id, repoId);
    // The repository's context and the local data both reach the device's rendered config context.
    const rendered = (await t.call('GET', `/api/dcim/devices/${device.id}/?include=config_context`)).body.config_context;
    assert.deepEqual(rendered, { ntp: ['10.0.0.2'], snmp: { community: 'public' } });

    write('config_contexts/devices/nobody.json', '{"a": 1}');
    commit('a device that does not exist');
    const failed = await sync();
    assert.equal(failed.result.status.value, 'FAILURE');
    assert.ok(failed.messages.some((m) => m.includes('devices/nobody') && m.includes('record not found!')), failed.messages.join('\n'));

    rmSync(path.join(origin, 'config_contexts/devices/nobody.json'));
    commit('a device that exists');
    assert.equal((await sync()).result.status.value, 'SUCCESS');
    await post('dcim/devices', { name: 'edge-2', device_type: deviceType.id, role: role.id, status, location: location.id });
    write('config_contexts/devices/edge-2.json', '{"kept": "until the repository goes"}');
    commit('edge-2');
    assert.equal((await sync()).result.status.value, 'SUCCESS');
    rmSync(path.join(origin, 'config_contexts/devices/edge-1.yaml'));
    commit('no local context for edge-1');
    const cleared = await sync();
    assert.equal(cleared.result.status.value, 'SUCCESS', cleared.messages.join('\n'));
    assert.deepEqual([(await read()).local_config_context_data, (await read()).local_config_context_data_owner_object_id], [null, null]);
  });

  it('should delete what a repository provided when the repository is deleted, and uninstall its jobs', async () => {
    write('jobs/hello.ts', "export const Hello = { meta: { name: 'Hello from Git', has_sensitive_variables: false }, async run() { return 1; } };\n");
    commit('jobs again');
    const { result, messages } = await sync();
    assert.equal(result.status.value, 'SUCCESS', messages.join('\n'));
    assert.equal((await t.job('Hello from Git', { enable: false })).installed, true);
    const gone = await t.call('DELETE', `/api/extras/git-repositories/${repoId}/`);
    assert.equal(gone.status, 204, gone.raw);
    for (const list of ['config-contexts', 'config-context-schemas', 'export-templates', 'graphql-queries']) assert.deepEqual(await owned(list), [], list);
    assert.equal((await t.job('Hello from Git', { enable: false })).installed, false);
    const devices = (await t.call('GET', '/api/dcim/devices/?name=edge-2')).body.results;
    assert.deepEqual([devices[0].local_config_context_data, devices[0].local_config_context_data_owner_object_id], [null, null]);
  });
});
