import type { WriteHookContext } from '../../ops/extensions.js';

/** A VRF-device assignment without a name or route distinguisher takes its VRF's, as the reference's `clean()` does (one query per batch). */
export async function inheritFromVrf({ services, exec, plans }: WriteHookContext): Promise<void> {
  const wanting = plans.filter((p) => typeof p.row.vrf_id === 'string' && (!p.row.name || !p.row.rd));
  if (wanting.length === 0) return;
  const vrfs = new Map((await services.store.byIds(exec, services.registry.get('ipam.vrf'), [...new Set(wanting.map((p) => String(p.row.vrf_id)))])).map((r) => [r.id, r]));
  for (const plan of wanting) {
    const vrf = vrfs.get(String(plan.row.vrf_id));
    if (!vrf) continue;
    if (!plan.row.name) plan.row.name = vrf.name;
    if (!plan.row.rd) plan.row.rd = vrf.rd;
  }
}
