import { addDetailSection } from '../detail-view.js';
import { html, type Html } from '../html.js';
import { detailPath, listPath, type PageContext } from '../layout.js';
import { nameRelated, pageRequest, readList, type Shown } from '../model-data.js';
import { showValue } from '../values.js';
import type { FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../../core/registry/types.js';

const SHOWN = 500;

/** A device's page adds its interfaces with their cable, the peer at the cable's far end, the connected endpoint and addresses. */
async function interfacesSection(ctx: PageContext, req: FastifyRequest, _model: ResolvedModel, device: Shown): Promise<Html> {
  const interfaces = ctx.services.registry.get('dcim.interface');
  const { count, results } = await readList(ctx.services, pageRequest(req, interfaces, 'list'), interfaces, new Map([['device', [String(device.id)]]]), { limit: SHOWN, offset: 0, depth: 0 }).catch(() => ({ count: 0, results: [] as Shown[] }));
  await nameRelated(ctx.services, req, ['cable', 'cable_peer', 'connected_endpoint', 'ip_addresses'], results);
  const rows = results.map((i) => html`<tr><th scope="row"><a href="${detailPath(interfaces, String(i.id))}">${String(i.name)}</a></th><td>${showValue(ctx.services, i.type)}</td><td>${showValue(ctx.services, i.enabled)}</td><td>${showValue(ctx.services, i.cable)}</td><td>${showValue(ctx.services, i.cable_peer)}</td><td>${showValue(ctx.services, i.connected_endpoint)}</td><td>${showValue(ctx.services, i.ip_addresses)}</td><td>${i.cable ? html`<a href="${detailPath(interfaces, String(i.id))}trace/">Trace</a>` : ''}</td></tr>`);
  const more = count > SHOWN ? html`<p><a href="${listPath(interfaces)}?device=${encodeURIComponent(String(device.id))}">All ${count} interfaces</a></p>` : '';
  return html`<section class="card" id="interfaces"><h2>Interfaces <span class="badge">${count}</span></h2><div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Enabled</th><th scope="col">Cable</th><th scope="col">Cable peer</th><th scope="col">Connected endpoint</th><th scope="col">IP addresses</th><th scope="col"><span class="skip">Trace</span></th></tr></thead><tbody>${rows.length ? rows : html`<tr><td colspan="8" class="muted">No interfaces.</td></tr>`}</tbody></table></div>${more}<p><a class="btn" href="${listPath(interfaces)}add/?device=${encodeURIComponent(String(device.id))}">Add an interface</a></p></section>`;
}

export function registerDeviceViews(): void {
  addDetailSection('dcim.device', interfacesSection, { replaces: ['dcim.interface.device'] });
}
