import { AppError } from '../../core/errors.js';
import { allocateIps, InsufficientSpaceError, listAvailableIps, listAvailablePrefixes } from '../../apps/ipam/allocate.js';
import { requirePermission } from '../../ops/permissions.js';
import { getRow, listRows } from '../../ops/read.js';
import { persist } from '../../ops/write/persist.js';
import { writeTransaction } from '../../ops/write/transaction.js';
import { addDetailSection } from '../detail-view.js';
import { formValue, type FormBody } from '../form-body.js';
import { html, type Html } from '../html.js';
import { csrfField, detailPath, layout, listPath, type PageContext } from '../layout.js';
import { pageRequest, type Shown } from '../model-data.js';
import { seeOther, sendHtml, uiRoute } from '../page.js';
import { picker } from '../picker.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Services } from '../../ops/services.js';

const FREE_SHOWN = 10;

function size(version: number, length: number): bigint {
  return 1n << BigInt((version === 6 ? 128 : 32) - length);
}

/** Used share of a prefix as the reference counts it: child prefixes of a container, addresses of a network or pool. */
async function utilization(ctx: PageContext, req: FastifyRequest, prefix: Row): Promise<{ used: bigint; total: bigint }> {
  const version = Number(prefix.ip_version);
  const total = size(version, Number(prefix.prefix_length));
  const params = new Map([['parent', [prefix.id]]]);
  if (prefix.type === 'container') {
    const children = ctx.services.registry.get('ipam.prefix');
    const { rows } = await listRows(ctx.services, pageRequest(req, children, 'list'), children, { params, limit: null, offset: 0 });
    return { used: rows.reduce((sum, r) => sum + size(version, Number(r.prefix_length)), 0n), total };
  }
  const ips = ctx.services.registry.get('ipam.ipaddress');
  const { count } = await listRows(ctx.services, pageRequest(req, ips, 'list'), ips, { params, limit: 1, offset: 0 });
  return { used: BigInt(count), total };
}

function percent(used: bigint, total: bigint): number {
  return total === 0n ? 0 : Number((used * 10000n) / total) / 100;
}

function allocateForm(ctx: PageContext, model: ResolvedModel, prefix: Shown): Html {
  const ipModel = ctx.services.registry.get('ipam.ipaddress');
  const assign = ctx.services.registry.get('ipam.ipaddresstointerface');
  const status = ipModel.fieldMap.get('status')!;
  const iface = assign.fieldMap.get('interface')!;
  return html`<form method="post" action="${detailPath(model, String(prefix.id))}allocate-ip/" class="fields">${csrfField(ctx)}
<div class="field required"><label for="id_status">Status</label><div>${picker(ctx.services, ipModel, status, { id: 'id_status', name: 'status', selected: [{ value: 'Active', label: 'Active' }], required: true })}</div></div>
<div class="field"><label for="id_interface">Assign to interface</label><div>${picker(ctx.services, assign, iface, { id: 'id_interface', name: 'interface', selected: [] })}</div></div>
<div class="field"><label for="id_dns_name">DNS name</label><div><input id="id_dns_name" name="dns_name"></div></div>
<div class="actions"><button class="primary" type="submit">Allocate next free IP</button></div></form>`;
}

/** A prefix's page adds its utilization, its free prefixes and first free addresses, and a one-click allocation. */
async function prefixSection(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, prefix: Shown): Promise<Html> {
  const row = await getRow(ctx.services, pageRequest(req, model, 'detail'), model, String(prefix.id), new Map(), 'view', ctx.services.dialect.db);
  const { used, total } = await utilization(ctx, req, row);
  const share = percent(used, total);
  const freePrefixes = await listAvailablePrefixes(ctx.services.dialect.db, row);
  const freeIps = row.type === 'container' ? [] : await listAvailableIps(ctx.services.dialect.db, row, { limit: FREE_SHOWN });
  const prefixes = freePrefixes.slice(0, 50).map((p) => html`<li><a href="${listPath(model)}add/?prefix=${encodeURIComponent(p.prefix)}&amp;namespace=${encodeURIComponent(String(row.namespace_id))}">${p.prefix}</a></li>`);
  const ips = freeIps.map((ip) => html`<li><a href="/ipam/ip-addresses/add/?address=${encodeURIComponent(ip.address)}&amp;namespace=${encodeURIComponent(String(row.namespace_id))}">${ip.address}</a></li>`);
  return html`<section class="card" id="utilization"><h2>Utilization</h2><p><progress max="100" value="${share}" aria-label="Utilization">${share}%</progress> <b>${share}%</b> <span class="muted">(${String(used)} of ${String(total)} ${row.type === 'container' ? 'addresses in child prefixes' : 'addresses'})</span></p></section>
<section class="card" id="free-space"><h2>Free space</h2><div class="row"><div class="grow"><h3>Available prefixes</h3>${prefixes.length ? html`<ul>${prefixes}</ul>` : html`<p class="muted">None.</p>`}</div>
<div class="grow"><h3>First available IPs</h3>${row.type === 'container' ? html`<p class="muted">A container holds prefixes, not addresses.</p>` : ips.length ? html`<ul>${ips}</ul>` : html`<p class="muted">None.</p>`}</div></div>
${row.type === 'container' ? '' : allocateForm(ctx, model, prefix)}</section>`;
}

/** POST allocate-ip/: the first free address of the prefix, assigned to the interface when one is chosen; one transaction. */
async function allocateIp(ctx: PageContext, req: FastifyRequest, reply: FastifyReply) {
  const services = ctx.services;
  const prefixes = services.registry.get('ipam.prefix');
  const ipModel = services.registry.get('ipam.ipaddress');
  const assign = services.registry.get('ipam.ipaddresstointerface');
  const form = req.body as FormBody;
  const rc = pageRequest(req, ipModel, 'add');
  const prefix = await getRow(services, rc, prefixes, (req.params as { key: string }).key, new Map(), 'view', services.dialect.db);
  if (rc.actor) requirePermission(services, rc.actor, 'add', ipModel);
  const item: Record<string, unknown> = { status: formValue(form, 'status') || 'Active' };
  if (formValue(form, 'dns_name')) item.dns_name = formValue(form, 'dns_name');
  const iface = formValue(form, 'interface');
  try {
    const [ip] = await writeTransaction(services, ipModel, async (exec) => {
      const rows = await allocateIps({ services, exec, rc, parent: prefix, items: [item], asList: false });
      if (iface) await persist(services, exec, pageRequest(req, assign, 'add'), assign, [{ input: { ip_address: rows[0].id, interface: iface } }], { partial: false, asList: false });
      return rows;
    });
    return seeOther(reply, detailPath(ipModel, ip.id));
  } catch (err) {
    const text = err instanceof InsufficientSpaceError ? err.message : err instanceof AppError && err.status === 400 ? JSON.stringify(err.body) : undefined;
    if (text === undefined) throw err;
    return sendHtml(reply, 400, layout(ctx, 'Allocation refused', html`<h1>Allocation refused</h1><div class="alert error" role="alert">${text}</div><p><a href="${detailPath(prefixes, prefix.id)}">Back to the prefix</a></p>`));
  }
}

export function registerPrefixViews(app: FastifyInstance, services: Services): void {
  addDetailSection('ipam.prefix', prefixSection);
  uiRoute(app, services, 'POST', '/ipam/prefixes/:key/allocate-ip/', allocateIp);
}
