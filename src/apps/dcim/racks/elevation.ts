import { listRows } from '../../../ops/read.js';
import { serialize } from '../../../ops/serialize/index.js';
import type { Row } from '../../../core/registry/types.js';
import type { RequestContext, Services } from '../../../ops/services.js';

export type Face = 'front' | 'rear';
const FACE_LABEL: Record<Face, string> = { front: 'Front', rear: 'Rear' };

/** One rack unit of an elevation; `device` and `reservation` are for the web interface (the API renders the reference's four keys). */
export type RackUnit = {
  id: number;
  name: string;
  face: { value: Face; label: string };
  occupied: boolean;
  device: { id: string; display: string; height: number; bottom: number; image: string } | null;
  reservation: { id: string; description: string } | null;
};

/** Where uploaded files are served (the reference's MEDIA_URL default). */
const MEDIA_URL = '/media/';

/** Unit numbers top to bottom as the reference lists them (ascending when the rack counts downwards). */
function unitNumbers(rack: Row): number[] {
  const height = Number(rack.u_height ?? 0);
  const up = Array.from({ length: height }, (_, i) => i + 1);
  return rack.desc_units ? up : up.reverse();
}

/** What a rack holds, read once for any number of faces: its placed devices (named when viewable) and its reservations. */
export type RackContents = {
  placed: { id: string; position: number; face: unknown; height: number; fullDepth: boolean; frontImage: string; rearImage: string }[];
  names: Map<string, string>;
  reservations: Row[];
};

/** Reads the rack's placed devices (with their types' height, depth and images), the names the user may see, and its reservations. */
export async function rackContents(services: Services, rc: RequestContext, rack: Row, opts: { exclude?: string } = {}): Promise<RackContents> {
  const devices = services.registry.get('dcim.device');
  const types = services.registry.get('dcim.devicetype');
  const col = (model: typeof devices, name: string) => model.fieldMap.get(name)?.column as string;
  const rows = await services.dialect.db.selectFrom(`${devices.table} as d`).innerJoin(`${types.table} as t`, 't.id', `d.${col(devices, 'device_type')}`)
    .select([`d.id as id`, `d.${col(devices, 'position')} as position`, `d.${col(devices, 'face')} as face`, `t.${col(types, 'u_height')} as u_height`, `t.${col(types, 'is_full_depth')} as full_depth`, `t.${col(types, 'front_image')} as front_image`, `t.${col(types, 'rear_image')} as rear_image`])
    .where(`d.${col(devices, 'rack')}`, '=', rack.id).where(`d.${col(devices, 'position')}`, '>', 0).where(`t.${col(types, 'u_height')}`, '>', 0).execute();
  const placed = rows.filter((d) => String(d.id) !== opts.exclude).map((d) => ({ id: String(d.id), position: Number(d.position), face: d.face, height: Number(d.u_height), fullDepth: Boolean(services.dialect.decode('boolean', d.full_depth)), frontImage: String(d.front_image ?? ''), rearImage: String(d.rear_image ?? '') }));
  const visible = await listRows(services, rc, devices, { params: new Map([['rack', [rack.id]]]), limit: null, offset: 0 }).catch(() => ({ rows: [] as Row[] }));
  const shown = await serialize(services, services.dialect.db, devices, visible.rows.filter((r) => placed.some((d) => d.id === r.id)), { depth: 0, baseUrl: rc.baseUrl, omitCounts: true });
  const reservations = services.registry.get('dcim.rackreservation');
  const held = await listRows(services, rc, reservations, { params: new Map([['rack', [rack.id]]]), limit: null, offset: 0 }).catch(() => ({ rows: [] as Row[] }));
  return { placed, names: new Map(shown.map((d) => [String((d as Row).id), String((d as Row).display)])), reservations: held.rows };
}

/**
 * The rack's units on one face (the reference's Rack.get_rack_units, expanded): every unit a
 * device with a position takes on that face (or through the rack, full depth) is occupied; the
 * device is named only when the user may view it. Reserved units carry their reservation.
 */
export function unitsOnFace(rack: Row, contents: RackContents, face: Face): RackUnit[] {
  const units = new Map<number, RackUnit>(unitNumbers(rack).map((u) => [u, { id: u, name: `U${u}`, face: { value: face, label: FACE_LABEL[face] }, occupied: false, device: null, reservation: null }]));
  for (const d of contents.placed.filter((p) => p.face === face || p.fullDepth)) {
    const name = contents.names.get(d.id);
    const image = d.face === face ? d.frontImage : d.rearImage;
    for (let u = d.position; u < d.position + d.height; u += 1) {
      const unit = units.get(u);
      if (!unit) continue;
      unit.occupied = true;
      if (name !== undefined) unit.device = { id: d.id, display: name, height: d.height, bottom: d.position, image: image ? `${MEDIA_URL}${image}` : '' };
    }
  }
  for (const r of contents.reservations) for (const u of (Array.isArray(r.units) ? r.units : []) as number[]) {
    const unit = units.get(Number(u));
    if (unit) unit.reservation = { id: r.id, description: String(r.description ?? '') };
  }
  return [...units.values()];
}

/** The rack's units on one face (reads the rack's contents, then places them). */
export async function rackUnits(services: Services, rc: RequestContext, rack: Row, opts: { face: Face; exclude?: string }): Promise<RackUnit[]> {
  return unitsOnFace(rack, await rackContents(services, rc, rack, { exclude: opts.exclude }), opts.face);
}

/** A unit as the reference's RackUnitSerializer renders it. */
export function unitBody(unit: RackUnit): Record<string, unknown> {
  return { id: unit.id, name: unit.name, face: unit.face, occupied: unit.occupied };
}

const esc = (t: string) => t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** How a device's name is shortened to fit the drawing (the reference's UI_RACK_VIEW_TRUNCATE_FUNCTION default: up to the first dot). */
export const shortDeviceName = (name: string): string => name.split('.')[0];

/** Drawing options: sizes, title, link target, and the reference's include_images and display_fullname (both default true). */
export type ElevationDrawing = { unitWidth: number; unitHeight: number; legendWidth: number; title: string; deviceUrl: (id: string) => string; includeImages?: boolean; displayFullname?: boolean };

/**
 * A device's box: its face image when there is one and images are asked for, and both its full
 * and short names, the one not asked for hidden (as the reference draws them, so a page can toggle).
 */
function deviceBox(device: NonNullable<RackUnit['device']>, box: { x: number; y: number; w: number; h: number }, opts: ElevationDrawing): string {
  const full = opts.displayFullname !== false;
  const image = opts.includeImages !== false && device.image ? `<image class="device-image" href="${esc(device.image)}" x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" preserveAspectRatio="xMidYMid slice"/>` : '';
  const at = `x="${box.x + box.w / 2}" y="${box.y + box.h / 2 + 4}" text-anchor="middle"`;
  const names = `<text ${at} class="rack-device-fullname${full ? '' : ' hidden'}">${esc(device.display)}</text><text ${at} class="rack-device-shortname${full ? ' hidden' : ''}">${esc(shortDeviceName(device.display))}</text>`;
  return `<a href="${esc(opts.deviceUrl(device.id))}"><rect class="unit occupied" x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}"><title>${esc(device.display)}</title></rect>${image}${names}</a>`;
}

/**
 * The elevation as an SVG drawing: one row per unit (top first), free, reserved or occupied;
 * a device is one box over the units it takes, linking to its page (`deviceUrl`).
 */
export function elevationSvg(units: RackUnit[], opts: ElevationDrawing): string {
  const { unitWidth: w, unitHeight: h, legendWidth: lw } = opts;
  const height = units.length * h;
  const rowOf = new Map(units.map((u, i) => [u.id, i]));
  const parts: string[] = [];
  units.forEach((u, i) => {
    const y = i * h;
    const state = u.occupied ? 'occupied' : u.reservation ? 'reserved' : 'free';
    parts.push(`<text x="${lw - 6}" y="${y + h / 2 + 4}" text-anchor="end">${u.id}</text>`);
    if (!u.occupied) parts.push(`<rect class="unit ${state}" x="${lw}" y="${y}" width="${w}" height="${h}"><title>${esc(`${u.name}: ${u.reservation ? `reserved${u.reservation.description ? ` (${u.reservation.description})` : ''}` : 'free'}`)}</title></rect>${u.reservation ? `<text x="${lw + 6}" y="${y + h / 2 + 4}">${esc(`Reserved${u.reservation.description ? `: ${u.reservation.description}` : ''}`)}</text>` : ''}`);
    else if (!u.device) parts.push(`<rect class="unit occupied" x="${lw}" y="${y}" width="${w}" height="${h}"><title>${u.name}: occupied</title></rect>`);
  });
  const drawn = new Set<string>();
  for (const u of units) {
    if (!u.device || drawn.has(u.device.id)) continue;
    drawn.add(u.device.id);
    const rows = Array.from({ length: u.device.height }, (_, k) => rowOf.get(u.device!.bottom + k)).filter((r): r is number => r !== undefined);
    const top = Math.min(...rows) * h;
    const boxHeight = rows.length * h;
    parts.push(deviceBox(u.device, { x: lw, y: top, w, h: boxHeight }, opts));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" class="rack" width="${lw + w + 2}" height="${height + 2}" viewBox="-1 -1 ${lw + w + 2} ${height + 2}" role="img" aria-label="${esc(opts.title)}">${parts.join('')}</svg>`;
}
