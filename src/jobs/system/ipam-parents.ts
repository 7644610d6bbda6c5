import { formatAddress, formatCidr } from '../../core/ip/index.js';
import { hasModelPermission } from '../../ops/permissions.js';
import { listRows } from '../../ops/read.js';
import { writeTransaction } from '../../ops/write/transaction.js';
import { hostPlacement, prefixPlacement, reparent } from '../../apps/ipam/hierarchy.js';
import { addressOf, prefixOf } from '../../apps/ipam/net.js';
import { findClosestParents } from '../../apps/ipam/parents.js';
import { RunJobTaskFailed } from './bulk-actions.js';
import type { Row } from '../../core/registry/types.js';
import type { Params } from '../../ops/filters/apply.js';
import type { SystemContext, SystemJob } from './types.js';

type Restriction = { namespaceId?: string; network?: string };

/** Rows of `model` the user may see, within the namespace and network asked for (`networkFilter`: the model's filter for "inside a network"). */
async function relevantRows(ctx: SystemContext, model: string, networkFilter: string, only: Restriction): Promise<Row[]> {
  const { services, rc } = ctx.system;
  const params: Params = new Map();
  if (only.namespaceId) params.set('namespace', [only.namespaceId]);
  if (only.network) params.set(networkFilter, [only.network]);
  return (await listRows(services, rc, services.registry.get(model), { params, limit: null, offset: 0 })).rows;
}

/** Fails the run unless the user may change `model` (the reference's `has_perm` check). */
async function requireChange(ctx: SystemContext, model: string, label: string): Promise<void> {
  const actor = ctx.system.rc.actor;
  if (!actor || hasModelPermission(ctx.system.services, actor, 'change', model)) return;
  await ctx.fail(`User "${actor.username}" does not have permission to update ${label} records`);
  throw new RunJobTaskFailed(`User does not have update permission for ${label} records`);
}

/** The rows whose stored parent differs from the closest containing prefix, with that prefix (or null). */
async function wrongParents(ctx: SystemContext, rows: Row[], kind: 'prefix' | 'ip'): Promise<{ row: Row; parent: string | null }[]> {
  const placements = rows.map((row) => (kind === 'prefix' ? prefixPlacement(row) : hostPlacement(row, String(row.namespace_id))));
  const found = await findClosestParents(ctx.system.services.dialect.db, placements);
  return rows.filter((row) => (found.get(row.id) ?? null) !== (row.parent_id ?? null)).map((row) => ({ row, parent: found.get(row.id) ?? null }));
}

/** `10.0.0.0/8` of prefix ids, for the log. */
async function prefixNames(ctx: SystemContext, ids: (string | null)[]): Promise<Map<string, string>> {
  const { services } = ctx.system;
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  const rows = await services.store.byIds(services.dialect.db, services.registry.get('ipam.prefix'), wanted);
  return new Map(rows.map((r) => [r.id, formatCidr(prefixOf(r))]));
}

/** Checks (and unless a dry run, fixes) the parents of one kind; returns how many were wrong. */
async function checkKind(ctx: SystemContext, kind: 'prefix' | 'ip', rows: Row[], dryrun: boolean): Promise<number> {
  const [label, single] = kind === 'prefix' ? ['Prefixes', 'Prefix'] : ['IP Addresses', 'IP Address'];
  const wrong = await wrongParents(ctx, rows, kind);
  const names = await prefixNames(ctx, wrong.flatMap((w) => [w.parent, (w.row.parent_id as string | null) ?? null]));
  const fixable = wrong.filter((w) => kind === 'prefix' || w.parent);
  for (const { row, parent } of wrong) {
    const shown = kind === 'prefix' ? formatCidr(prefixOf(row)) : formatAddress(addressOf(row).host, addressOf(row).version);
    const object = { display: shown };
    if (!parent && kind === 'ip') await ctx.logger.warning(`No valid parent Prefix could be identified for ${shown}. You should create a ${formatCidr(addressOf(row))} Prefix or similar to contain this IP Address.`, { object });
    else await ctx.logger.warning(`Parent for ${shown} should be corrected from ${names.get(String(row.parent_id)) ?? 'None'} to ${parent ? names.get(parent) : 'None'}`, { object });
  }
  if (fixable.length === 0) {
    await ctx.logger.success(`No ${single} records had incorrect \`parent\` values`);
    return 0;
  }
  if (dryrun) {
    await ctx.logger.warning(`Would correct \`parent\` for ${fixable.length} ${label} if this were not a dry-run`);
    return fixable.length;
  }
  const ids = fixable.map((w) => w.row.id);
  const { services } = ctx.system;
  // Under the IPAM hierarchy's write lock (the prefix model's), recomputed there against concurrent writes.
  await writeTransaction(services, services.registry.get('ipam.prefix'), (trx) => reparent(services, trx, kind === 'prefix' ? { prefixIds: ids, ipIds: [] } : { prefixIds: [], ipIds: ids }));
  await ctx.logger.success(`Corrected \`parent\` for ${fixable.length} ${label}`);
  return fixable.length;
}

export const FixIPAMParents: SystemJob = {
  meta: { name: 'Check/Fix IPAM Parents', description: "Check for and/or fix incorrect 'parent' values on IP Address and/or Prefix records.", has_sensitive_variables: false },
  variables: {
    cleanup_types: { type: 'MultiChoiceVar', choices: [['ipam.IPAddress', 'IP addresses'], ['ipam.Prefix', 'Prefixes']], default: ['ipam.IPAddress', 'ipam.Prefix'] },
    restrict_to_namespace: { type: 'ObjectVar', model: 'ipam.namespace', required: false, description: 'Check only records within this namespace' },
    restrict_to_network: { type: 'IPNetworkVar', required: false, description: 'Check only records within this network' },
    dryrun: { type: 'DryRunVar' },
  },
  /** Every record's parent is compared with its closest containing prefix; prefixes first (IP addresses' parents are prefixes). No change records, as the reference's bulk_update. */
  async run(ctx, data) {
    const types = new Set((data.cleanup_types as string[]) ?? []);
    const namespace = data.restrict_to_namespace as { id: string; name: string } | null;
    const only: Restriction = { namespaceId: namespace?.id, network: data.restrict_to_network ? String(data.restrict_to_network) : undefined };
    if (namespace) await ctx.logger.info(`Inspecting only records in namespace ${namespace.name}`);
    if (only.network) await ctx.logger.info(`Inspecting only records that fall within ${only.network}`);
    const dryrun = Boolean(data.dryrun);
    if (types.has('ipam.Prefix')) {
      await requireChange(ctx, 'ipam.prefix', 'Prefix');
      await ctx.logger.info('Inspecting Prefix records...');
      await checkKind(ctx, 'prefix', await relevantRows(ctx, 'ipam.prefix', 'within_include', only), dryrun);
    }
    if (types.has('ipam.IPAddress')) {
      await requireChange(ctx, 'ipam.ipaddress', 'IP Address');
      await ctx.logger.info('Inspecting IP Address records...');
      await checkKind(ctx, 'ip', await relevantRows(ctx, 'ipam.ipaddress', 'prefix', only), dryrun);
    }
    return null;
  },
};
