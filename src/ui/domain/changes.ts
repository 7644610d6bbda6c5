import { getRow, listRows } from '../../ops/read.js';
import { addDetailSection } from '../detail-view.js';
import { html, type Html } from '../html.js';
import { type PageContext } from '../layout.js';
import { pageRequest, type Shown } from '../model-data.js';
import type { FastifyRequest } from 'fastify';
import type { ResolvedModel } from '../../core/registry/types.js';

const text = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));

/**
 * A change record's page adds the difference it made: its snapshot against the object's
 * previous change (nothing before a create; nothing after a delete).
 */
async function diffSection(ctx: PageContext, req: FastifyRequest, model: ResolvedModel, change: Shown): Promise<Html> {
  const rc = pageRequest(req, model, 'detail');
  const row = await getRow(ctx.services, rc, model, String(change.id), new Map(), 'view', ctx.services.dialect.db);
  const earlier = await listRows(ctx.services, rc, model, { params: new Map([['changed_object_id', [String(row.changed_object_id)]], ['time__lt', [String(change.time)]]]), limit: 1, offset: 0 });
  const before = (row.action === 'create' ? {} : (earlier.rows[0]?.object_data ?? {})) as Record<string, unknown>;
  const after = (row.action === 'delete' ? {} : (row.object_data ?? {})) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => text(before[k]) !== text(after[k]));
  const rows = keys.map((k) => html`<tr><th scope="row">${k}</th><td class="${k in before ? 'diff-del' : ''}">${k in before ? text(before[k]) : ''}</td><td class="${k in after ? 'diff-add' : ''}">${k in after ? text(after[k]) : ''}</td></tr>`);
  return html`<section class="card" id="diff"><h2>Difference</h2><div class="table-wrap"><table><thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>${rows.length ? rows : html`<tr><td colspan="3" class="muted">No field changed.</td></tr>`}</tbody></table></div></section>`;
}

export function registerChangeViews(): void {
  addDetailSection('extras.objectchange', diffSection);
}
