import { createAll, missing, patchAll } from './seed-context.js';
import { interfaceLayout } from './seed-devices.js';
import type { SeedContext } from './seed-context.js';

/** Objects the assignments phase makes or updates (each device and VM: one IP link, one primary-IP PATCH). */
export function plannedAssignments(ctx: SeedContext): number {
  if (missing(ctx, ['ipam/ip-address-to-interface']).length) return 0;
  const linked = Math.min(ctx.scale.ipAddresses, ctx.scale.devices + ctx.scale.virtualMachines);
  return linked * 2;
}

/**
 * IP addresses on interfaces: the n-th address on the management port of the n-th device, the
 * following ones on the first interface of each virtual machine; each becomes its owner's
 * primary IPv4 address (bulk PATCH of devices and virtual machines).
 */
export async function seedIpAssignments(ctx: SeedContext): Promise<string | null> {
  const absent = missing(ctx, ['ipam/ip-address-to-interface']);
  if (absent.length) return `IP address assignments skipped: no ${absent.join(', ')} endpoint`;
  const ips = ctx.ipAddresses;
  const mgmt = interfaceLayout(ctx.scale.interfacesPerDevice).mgmt;
  const devices = ctx.devices.filter((d) => d.interfaces.length).slice(0, ips.length);
  const vms = ctx.vms.filter((v) => v.iface).slice(0, Math.max(0, ips.length - devices.length));
  if (!devices.length && !vms.length) return 'IP address assignments skipped: no interfaces or no IP addresses were made';
  await createAll(ctx, 'ip assignments', '/api/ipam/ip-address-to-interface/', [
    ...devices.map((d, i) => ({ ip_address: ips[i], interface: d.interfaces[mgmt] })),
    ...vms.map((v, i) => ({ ip_address: ips[devices.length + i], vm_interface: v.iface })),
  ], 1000);
  await patchAll(ctx, 'primary IPs', '/api/dcim/devices/', devices.map((d, i) => ({ id: d.id, primary_ip4: ips[i] })));
  await patchAll(ctx, 'primary IPs', '/api/virtualization/virtual-machines/', vms.map((v, i) => ({ id: v.id, primary_ip4: ips[devices.length + i] })));
  return null;
}
