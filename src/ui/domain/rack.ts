import { elevationSvg, rackContents, unitsOnFace, type Face } from '../../apps/dcim/racks/elevation.js';
import { getRow } from '../../ops/read.js';
import { addDetailSection } from '../detail-view.js';
import { html, raw, type Html } from '../html.js';
import { detailPath, type PageContext } from '../layout.js';
import { pageRequest, type Shown } from '../model-data.js';
import type { FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../../core/registry/types.js';

/** A rack's page adds its front and rear elevations (the elevation endpoint's data) and a link to add a device to it. */
async function rackSection(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, rack: Shown): Promise<Html> {
  const rc = pageRequest(req, model, 'detail');
  const row = await getRow(ctx.services, rc, model, String(rack.id), new Map(), 'view', ctx.services.dialect.db);
  const devices = ctx.services.registry.get('dcim.device');
  const faces: Face[] = ['front', 'rear'];
  const drawings: Html[] = [];
  const contents = await rackContents(ctx.services, rc, row);
  for (const face of faces) {
    const units = unitsOnFace(row, contents, face);
    const free = units.filter((u) => !u.occupied && !u.reservation).length;
    const svg = elevationSvg(units, { unitWidth: 230, unitHeight: 22, legendWidth: 30, title: `${String(rack.display)} ${face} elevation`, deviceUrl: (id) => detailPath(devices, id) });
    drawings.push(html`<figure class="elevation" id="elevation-${face}"><figcaption><b>${face === 'front' ? 'Front' : 'Rear'}</b> <span class="muted">(${free} of ${units.length} units free)</span></figcaption>${raw(svg)}</figure>`);
  }
  const location = rack.location && typeof rack.location === 'object' ? `&location=${encodeURIComponent(String(rack.location.id))}` : '';
  return html`<section class="card"><h2>Elevation</h2><p class="legend"><span><i class="l-free"></i>Free</span><span><i class="l-used"></i>Occupied</span><span><i class="l-reserved"></i>Reserved</span> <a class="btn" href="/dcim/devices/add/?rack=${encodeURIComponent(String(rack.id))}${location}">Add a device to this rack</a> <a href="/api/dcim/racks/${String(rack.id)}/elevation/?render=svg">SVG</a></p><div class="elevations">${drawings}</div></section>`;
}

export function registerRackViews(): void {
  addDetailSection('dcim.rack', rackSection);
}
