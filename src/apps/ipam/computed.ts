/**
 * Read-time values of the IPAM models: the CIDR texts `prefix` and `address` and the spec's
 * `family` come from the row itself (no query); `nat_outside_list` is one query per page.
 */
import { objectUrl } from '../../ops/serialize/index.js';
import { chunk } from '../../db/store.js';
import { T } from './net.js';
import type { Row } from '../../core/registry/types.js';
import type { ComputedLoader } from '../../ops/extensions.js';

/** A loader that maps each row to a value without touching the database. */
function perRow(fn: (row: Row) => unknown): ComputedLoader {
  return async ({ rows }) => new Map(rows.map((row) => [row.id, fn(row)]));
}

/** `{value, label}` of ip_version, as the spec's `family`. */
export const family = perRow((row) => (row.ip_version === null || row.ip_version === undefined ? null : { value: Number(row.ip_version), label: `IPv${Number(row.ip_version)}` }));

/** Prefix CIDR text from its network and length. */
export const prefixText = perRow((row) => `${String(row.network)}/${String(row.prefix_length)}`);

/** Address text: host with mask length. */
export const addressText = perRow((row) => `${String(row.host)}/${String(row.mask_length)}`);

/** IP addresses whose `nat_inside` is this one, as object references. */
export const natOutsideList: ComputedLoader = async ({ services, exec, model, rows, opts }) => {
  const out = new Map<string, unknown>(rows.map((r) => [r.id, [] as unknown[]]));
  for (const part of chunk(rows.map((r) => r.id))) {
    const text = services.store.statementText(`nat outside ${part.length}`, () => exec.selectFrom(T.ip).select(['id', 'nat_inside_id']).where('nat_inside_id', 'in', part).orderBy('id').compile());
    const found = await services.dialect.readRows(exec, text, part);
    for (const r of found) (out.get(String(r.nat_inside_id)) as unknown[]).push({ id: r.id, object_type: model.id, url: objectUrl(opts.baseUrl, services.registry.get('ipam.ipaddress'), String(r.id)) });
  }
  return out;
};
