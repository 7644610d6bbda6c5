// Example job in plain JavaScript: reports devices without a primary IP address (it changes nothing).

/** @type {import('../../src/jobs/contract.js').JobDefinition} */
export const DevicesWithoutPrimaryIp = {
  meta: {
    name: 'Devices Without Primary IP',
    description: 'Log every device (optionally of one location) that has no primary IPv4 or IPv6 address.',
    grouping: 'Examples',
    has_sensitive_variables: false,
  },
  variables: {
    location: { type: 'ObjectVar', model: 'dcim.location', required: false, description: 'Only devices of this location' },
  },
  async run(ctx, data) {
    const filters = data.location ? { location: data.location.id } : {};
    const devices = await ctx.ops.list('dcim.device', filters);
    let missing = 0;
    for (const device of devices) {
      if (device.primary_ip4 || device.primary_ip6) continue;
      missing += 1;
      await ctx.logger.warning('No primary IP address', { object: device });
    }
    await ctx.logger.info(`${devices.length} devices checked, ${missing} without a primary IP address`);
    return { checked: devices.length, missing };
  },
};
