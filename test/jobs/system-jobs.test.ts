import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
before(async () => { t = await makeJobsApp(); });
after(async () => { await t.close(); });

async function run(name: string, data: Record<string, unknown>) {
  const job = await t.job(name, { enable: false });
  const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data });
  assert.equal(res.status, 201, res.raw);
  await t.idle();
  const result = (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
  const logs = (await t.call('GET', `/api/extras/job-results/${result.id}/logs/`)).body.map((l: any) => `${l.log_level.value}: ${l.message}`);
  return { result, logs };
}

async function tenants(names: string[]) {
  const res = await t.call('POST', '/api/tenancy/tenants/', names.map((name) => ({ name })));
  assert.equal(res.status, 201);
  return res.body.map((o: any) => o.id);
}

describe('system jobs', () => {
  it('should be registered enabled under the reference names, with the default job button', async () => {
    const res = await t.call('GET', '/api/extras/jobs/?grouping=System+Jobs&limit=50');
    const byClass = new Map(res.body.results.map((j: any) => [j.job_class_name, j]));
    const bulk = byClass.get('BulkEditObjects') as any;
    assert.equal(bulk.module_name, 'nautobot.core.jobs.bulk_actions');
    assert.deepEqual([bulk.name, bulk.enabled, bulk.hidden, bulk.has_sensitive_variables, bulk.soft_time_limit, bulk.time_limit], ['Bulk Edit Objects', true, true, false, 1800, 2000]);
    for (const name of ['BulkDeleteObjects', 'ExportObjectList', 'ImportObjects', 'LogsCleanup', 'RefreshDynamicGroupCaches', 'RefreshDynamicGroupCacheJobButtonReceiver']) assert.ok(byClass.has(name), name);
    assert.equal((byClass.get('RefreshDynamicGroupCacheJobButtonReceiver') as any).is_job_button_receiver, true);
    const buttons = await t.call('GET', '/api/extras/job-buttons/?name=Refresh+Dynamic+Group+Members+Cache');
    assert.deepEqual(buttons.body.results[0].content_types, ['extras.dynamicgroup']);
    assert.equal(buttons.body.results[0].button_class, 'warning');
  });

  it('should bulk edit the listed objects in one change-logged run', async () => {
    const ids = await tenants(['be-1', 'be-2', 'be-3']);
    const { result, logs } = await run('Bulk Edit Objects', { content_type: 'tenancy.tenant', form_data: { description: 'edited', _nullify: ['comments'] }, pk_list: ids.slice(0, 2) });
    assert.equal(result.status.value, 'SUCCESS', JSON.stringify(logs));
    assert.equal(result.result, 'Updated 2 tenants');
    const listed = await t.call('GET', '/api/tenancy/tenants/?name__isw=be-');
    assert.deepEqual(listed.body.results.map((o: any) => o.description), ['edited', 'edited', '']);
    const changes = await t.call('GET', `/api/extras/object-changes/?request_id=${result.id}`);
    assert.equal(changes.body.count, 2);
  });

  it('should fail a bulk edit with an invalid value and change nothing', async () => {
    const ids = await tenants(['bx-1']);
    const { result, logs } = await run('Bulk Edit Objects', { content_type: 'tenancy.tenant', form_data: { tenant_group: 'no-such-group' }, pk_list: ids });
    assert.equal(result.status.value, 'FAILURE');
    assert.deepEqual(result.result, { exc_type: 'RunJobTaskFailed', exc_message: 'Bulk Edit not fully successful, see logs' });
    assert.ok(logs.some((l: string) => l.startsWith('error: ') && l.includes('tenant_group')), JSON.stringify(logs));
  });

  it('should bulk delete every object its filters match', async () => {
    await tenants(['bd-1', 'bd-2']);
    const { result } = await run('Bulk Delete Objects', { content_type: 'tenancy.tenant', delete_all: true, filter_query_params: { name__isw: ['bd-'] } });
    assert.equal(result.status.value, 'SUCCESS');
    assert.equal((await t.call('GET', '/api/tenancy/tenants/?name__isw=bd-')).body.count, 0);
  });

  it('should import CSV all or none when asked to roll back, row by row otherwise', async () => {
    const csv = 'name,description\nimp-1,first\nimp-1,duplicate\nimp-2,second\n';
    const atomic = await run('Import Objects', { content_type: 'tenancy.tenant', csv_data: csv, roll_back_if_error: true });
    assert.equal(atomic.result.status.value, 'FAILURE');
    assert.equal(atomic.result.result.exc_message, 'CSV import not successful, all imports were rolled back, see logs');
    assert.equal((await t.call('GET', '/api/tenancy/tenants/?name__isw=imp-')).body.count, 0);
    const each = await run('Import Objects', { content_type: 'tenancy.tenant', csv_data: csv });
    assert.equal(each.result.result.exc_message, 'CSV import not fully successful, see logs');
    assert.ok(each.logs.includes('info: Row 1: Created record "imp-1"'), JSON.stringify(each.logs));
    assert.ok(each.logs.some((l: string) => l.startsWith('error: Row 2: `name`:')), JSON.stringify(each.logs));
    assert.deepEqual((await t.call('GET', '/api/tenancy/tenants/?name__isw=imp-')).body.results.map((o: any) => o.name), ['imp-1', 'imp-2']);
  });

  it('should export a filtered list to a CSV file proxy that downloads', async () => {
    await tenants(['exp-1', 'exp-2']);
    const { result } = await run('Export Object List', { content_type: 'tenancy.tenant', query_string: 'name__isw=exp-&page=2' });
    assert.equal(result.status.value, 'SUCCESS');
    assert.equal(result.files.length, 1);
    const proxy = (await t.call('GET', `/api/extras/file-proxies/${result.files[0].id}/`)).body;
    assert.equal(proxy.name, 'nautobot_tenants.csv');
    assert.equal(proxy.file, undefined);
    const download = await t.app.inject({ method: 'GET', url: `/api/extras/file-proxies/${proxy.id}/download/`, headers: { authorization: 'Token 0123456789abcdef0123456789abcdef01234567' } });
    assert.equal(download.statusCode, 200);
    assert.equal(download.headers['content-disposition'], 'attachment; filename="nautobot_tenants.csv"');
    const lines = download.body.replace(/^\ufeff/, '').trim().split(/\r?\n/);
    assert.equal(lines.length, 3);
    assert.match(lines[0], /^name,/);
  });

  it('should refuse an export of a model the user may not view', async () => {
    const { result, logs } = await run('Export Object List', { content_type: 'users.user', query_string: 'foo=bar' });
    assert.equal(result.status.value, 'FAILURE', JSON.stringify(logs));
  });

  it('should clean up job results older than max_age', async () => {
    const { result } = await run('Logs Cleanup', { cleanup_types: ['extras.JobResult'], max_age: 0 });
    assert.equal(result.status.value, 'SUCCESS');
    assert.ok(result.result['extras.JobResult'] >= 6, JSON.stringify(result.result));
    assert.equal((await t.call('GET', '/api/extras/job-results/')).body.count, 1);
  });
});
