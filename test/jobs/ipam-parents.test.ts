import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJobsApp } from './helpers.js';
import type { JobsTestApp } from './helpers.js';

let t: JobsTestApp;
before(async () => { t = await makeJobsApp(); });
after(async () => { await t.close(); });

async function run(data: Record<string, unknown>) {
  const job = await t.job('Check/Fix IPAM Parents', { enable: false });
  const res = await t.call('POST', `/api/extras/jobs/${job.id}/run/`, { data });
  assert.equal(res.status, 201, res.raw);
  await t.idle();
  const result = (await t.call('GET', `/api/extras/job-results/${res.body.job_result.id}/`)).body;
  const logs = (await t.call('GET', `/api/extras/job-results/${result.id}/logs/`)).body.map((l: any) => `${l.log_level.value}: ${l.message}`) as string[];
  return { result, logs };
}

describe('Check/Fix IPAM Parents', () => {
  it('should be a system job under the reference module and class names', async () => {
    const job = await t.job('Check/Fix IPAM Parents', { enable: false });
    assert.deepEqual([job.module_name, job.job_class_name, job.grouping, job.enabled, job.supports_dryrun], ['nautobot.ipam.jobs.cleanup', 'FixIPAMParents', 'System Jobs', true, true]);
    const vars = (await t.call('GET', `/api/extras/jobs/${job.id}/variables/`)).body;
    assert.deepEqual(vars.map((v: any) => [v.name, v.type]), [['cleanup_types', 'MultiChoiceVar'], ['restrict_to_namespace', 'ObjectVar'], ['restrict_to_network', 'IPNetworkVar'], ['dryrun', 'DryRunVar']]);
  });

  it('should report wrong parents on a dry run and correct them otherwise', async () => {
    const status = (await t.call('GET', '/api/extras/statuses/?name=Active')).body.results[0].id;
    const wide = await t.call('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/8', status });
    const narrow = await t.call('POST', '/api/ipam/prefixes/', { prefix: '10.1.0.0/16', status });
    const ip = await t.call('POST', '/api/ipam/ip-addresses/', { address: '10.1.2.3/24', status, namespace: wide.body.namespace.id });
    assert.deepEqual([wide.status, narrow.status, ip.status], [201, 201, 201], narrow.raw + ip.raw);
    // Parents gone wrong behind the service's back (what the job exists to repair).
    const { db } = t.app.services.dialect;
    await db.updateTable('ipam_prefix').set({ parent_id: null }).where('id', '=', narrow.body.id).execute();
    await db.updateTable('ipam_ipaddress').set({ parent_id: wide.body.id }).where('id', '=', ip.body.id).execute();
    const parentOf = async (path: string, id: string) => (await t.call('GET', `/api/ipam/${path}/${id}/`)).body.parent?.id ?? null;

    const dry = await run({ cleanup_types: ['ipam.Prefix', 'ipam.IPAddress'], dryrun: true });
    assert.equal(dry.result.status.value, 'SUCCESS', dry.logs.join('\n'));
    assert.ok(dry.logs.includes('warning: Parent for 10.1.0.0/16 should be corrected from None to 10.0.0.0/8'), dry.logs.join('\n'));
    assert.ok(dry.logs.includes('warning: Parent for 10.1.2.3 should be corrected from 10.0.0.0/8 to 10.1.0.0/16'), dry.logs.join('\n'));
    assert.equal(await parentOf('prefixes', narrow.body.id), null);

    const fixed = await run({ cleanup_types: ['ipam.Prefix', 'ipam.IPAddress'], restrict_to_network: '10.0.0.0/8' });
    assert.equal(fixed.result.status.value, 'SUCCESS', fixed.logs.join('\n'));
    assert.equal(await parentOf('prefixes', narrow.body.id), wide.body.id);
    assert.equal(await parentOf('ip-addresses', ip.body.id), narrow.body.id);
    const again = await run({ cleanup_types: ['ipam.Prefix', 'ipam.IPAddress'] });
    assert.ok(again.logs.includes('success: No Prefix records had incorrect `parent` values'), again.logs.join('\n'));
    assert.ok(again.logs.includes('success: No IP Address records had incorrect `parent` values'), again.logs.join('\n'));
  });
});
