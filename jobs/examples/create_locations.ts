import type { JobDefinition } from '../../src/jobs/contract.js';

/**
 * Example job: creates `count` locations named `<prefix>-<n>` of one location type, through the
 * service's own operations (validation, change log by the user who ran it). With `dryrun` it
 * only reports what it would create.
 */
export const CreateLocations: JobDefinition = {
  meta: {
    name: 'Create Locations',
    description: 'Create numbered locations of one type (an example job).',
    grouping: 'Examples',
    has_sensitive_variables: false,
    time_limit: 120,
  },
  variables: {
    location_type: { type: 'ObjectVar', model: 'dcim.locationtype', label: 'Location type' },
    prefix: { type: 'StringVar', max_length: 50, regex: '^[A-Za-z0-9-]+$', description: 'Names are <prefix>-1, <prefix>-2, ...' },
    count: { type: 'IntegerVar', min_value: 1, max_value: 100, default: 3 },
    dryrun: { type: 'DryRunVar' },
  },
  async run(ctx, data) {
    const type = data.location_type as { id: string; display: string };
    const count = Number(data.count);
    const names = Array.from({ length: count }, (_, i) => `${String(data.prefix)}-${i + 1}`);
    if (data.dryrun) {
      await ctx.logger.info(`Would create ${names.join(', ')} of type ${type.display}`);
      return { created: 0, would_create: names };
    }
    const [active] = await ctx.ops.list('extras.status', { name: 'Active' }, { limit: 1 });
    const created = await ctx.ops.createMany('dcim.location', names.map((name) => ({ name, location_type: type.id, status: active.id })));
    for (const location of created) await ctx.logger.success('Created location', { object: location });
    return { created: created.length, ids: created.map((l) => l.id) };
  },
};
