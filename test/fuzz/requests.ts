import { brokenJsonText, csvText, fieldValue, nastyJson, nastyText, queryValue } from './values.js';
import type { Catalog, Endpoint } from './catalog.js';
import type { Random } from './random.js';

/** One request to send: what it is, and the text of its body. */
export type FuzzRequest = { method: string; url: string; body?: string; headers: Record<string, string> };

const JSON_TYPE = { 'content-type': 'application/json' };
const LOOKUPS = ['n', 'ic', 'nic', 'iew', 'niew', 'isw', 'nisw', 'ie', 'nie', 're', 'nre', 'ire', 'nire', 'lt', 'lte', 'gt', 'gte', 'isnull', 'bogus', ''];
const CONTROL = ['limit', 'offset', 'sort', 'depth', 'include', 'exclude_m2m', 'format', 'api_version', 'q', 'brief'];
const ACCEPTS = ['application/json', 'application/json; version=2.4', 'application/json; version=9.9', 'text/csv', 'text/html', '*/*', 'application/xml', 'application/json; version=abc'];
const RAW_IDS = ['%', '%zz', '%00', '..', '%2F', '%2e%2e', '0', '-1', '99999999999999999999', 'null', 'a'.repeat(3000)];

/** Percent-encoding; a lone surrogate becomes the bytes no decoder accepts (`%ED%A0%80`), on purpose. */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.split('').map((c) => { try { return encodeURIComponent(c); } catch { return '%ED%A0%80'; } }).join('');
  }
}

function badId(r: Random, cat: Catalog, ep?: Endpoint): string {
  return r.weighted<() => string>([
    [3, () => (ep?.ids.length ? r.pick(ep.ids) : r.uuid())],
    [2, () => enc(nastyText(r, cat.known)).slice(0, 4000)],
    [1, () => r.pick(RAW_IDS)],
    [1, () => r.uuid()],
    [1, () => (cat.known.names.length ? enc(r.pick(cat.known.names)) : 'x')],
  ])();
}

function query(r: Random, cat: Catalog, ep: Endpoint | undefined, count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const filter = ep?.filters.length && r.chance(0.8) ? r.pick(ep.filters) : { name: r.pick(CONTROL) };
    let name = filter.name;
    if (r.chance(0.15)) name = `${name.split('__')[0]}__${r.pick(LOOKUPS)}`;
    if (r.chance(0.05)) name = nastyText(r, cat.known).slice(0, 50);
    parts.push(`${enc(name)}=${enc(queryValue(r, cat.known, filter.schema))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function objectBody(r: Random, cat: Catalog, ep: Endpoint): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const fields = ep.fields.filter((f) => r.chance(f.required ? 0.8 : 0.3));
  for (const field of fields) body[field.name] = fieldValue(r, cat.known, field);
  if (r.chance(0.1)) body[nastyText(r, cat.known).slice(0, 30) || 'extra'] = nastyJson(r, cat.known);
  if (r.chance(0.1)) body.custom_fields = nastyJson(r, cat.known);
  if (r.chance(0.05)) body.relationships = r.chance(0.5) ? nastyJson(r, cat.known) : { [nastyText(r, cat.known)]: { destination: { objects: [nastyJson(r, cat.known)] } } };
  return body;
}

function jsonRequest(method: string, url: string, value: unknown): FuzzRequest {
  return { method, url, body: JSON.stringify(value), headers: { ...JSON_TYPE } };
}

/** The request kinds, each derived from the catalog. */
const KINDS: [number, (r: Random, cat: Catalog) => FuzzRequest][] = [
  [25, (r, cat) => {
    const ep = r.pick(cat.endpoints);
    const accept: Record<string, string> = r.chance(0.15) ? { accept: r.pick(ACCEPTS) } : {};
    return { method: r.chance(0.9) ? 'GET' : r.pick(['HEAD', 'OPTIONS']), url: `${ep.path}${query(r, cat, ep, 1 + r.int(3))}`, headers: accept };
  }],
  [10, (r, cat) => {
    const ep = r.pick(cat.endpoints);
    const accept: Record<string, string> = r.chance(0.2) ? { accept: r.pick(ACCEPTS) } : {};
    return { method: r.pick(['GET', 'GET', 'OPTIONS', 'POST', 'HEAD']), url: `${ep.path}${badId(r, cat, ep)}/${query(r, cat, undefined, r.int(2))}`, headers: accept };
  }],
  [15, (r, cat) => {
    const ep = r.pick(cat.endpoints);
    const body = r.chance(0.7) ? objectBody(r, cat, ep) : Array.from({ length: r.int(4) }, () => (r.chance(0.9) ? objectBody(r, cat, ep) : nastyJson(r, cat.known)));
    return jsonRequest('POST', ep.path, body);
  }],
  [15, (r, cat) => {
    const ep = r.pick(cat.endpoints);
    const method = r.pick(['PUT', 'PATCH', 'PATCH', 'DELETE']);
    const url = `${ep.path}${badId(r, cat, ep)}/${r.chance(0.1) ? query(r, cat, ep, 1) : ''}`;
    return method === 'DELETE' && r.chance(0.7) ? { method, url, headers: {} } : jsonRequest(method, url, r.chance(0.9) ? objectBody(r, cat, ep) : nastyJson(r, cat.known));
  }],
  [8, (r, cat) => {
    const ep = r.pick(cat.endpoints);
    const item = () => (r.chance(0.9) ? { ...objectBody(r, cat, ep), id: r.chance(0.6) && ep.ids.length ? r.pick(ep.ids) : nastyJson(r, cat.known) } : nastyJson(r, cat.known));
    return jsonRequest(r.pick(['PUT', 'PATCH', 'DELETE']), `${ep.path}${r.chance(0.1) ? query(r, cat, ep, 1) : ''}`, r.chance(0.85) ? Array.from({ length: r.int(4) }, item) : nastyJson(r, cat.known));
  }],
  [7, (r, cat) => {
    const ep = r.pick(cat.endpoints);
    const url = r.chance(0.6) ? ep.path : `${ep.path}${badId(r, cat, ep)}/`;
    const type = r.pick(['application/json', 'application/json', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '']);
    const headers: Record<string, string> = type ? { 'content-type': type } : {};
    return { method: r.pick(['POST', 'PUT', 'PATCH', 'DELETE']), url, body: brokenJsonText(r, cat.known), headers };
  }],
  [7, (r, cat) => {
    const ep = r.pick(cat.endpoints);
    if (r.chance(0.3)) return { method: 'GET', url: `${ep.path}${query(r, cat, ep, 1 + r.int(2))}${r.chance(0.5) ? '&' : '?'}format=csv`, headers: {} };
    const url = r.chance(0.8) ? ep.path : `${ep.path}${badId(r, cat, ep)}/`;
    return { method: r.pick(['POST', 'POST', 'PUT', 'PATCH']), url, body: csvText(r, cat.known, ep.fields.map((f) => f.name)), headers: { 'content-type': 'text/csv', ...(r.chance(0.5) ? { accept: 'application/json' } : {}) } };
  }],
  [10, (r, cat) => {
    const extra = r.pick(cat.extras);
    const owner = cat.endpoints.find((ep) => extra.path.startsWith(ep.path));
    const url = extra.path.replace(/\{\w+\}/, badId(r, cat, owner));
    const method = r.chance(0.8) ? r.pick([...extra.methods]) : r.pick(['POST', 'PATCH', 'DELETE', 'PUT']);
    const qs = extra.params.length && r.chance(0.7) ? `?${extra.params.filter(() => r.chance(0.5)).map((p) => `${enc(p.name)}=${enc(queryValue(r, cat.known, p.schema))}`).join('&')}` : '';
    return method === 'GET' ? { method, url: `${url}${qs}`, headers: {} } : jsonRequest(method, `${url}${qs}`, nastyJson(r, cat.known));
  }],
  [3, (r, cat) => {
    const path = r.pick(cat.others);
    const method = r.pick(['GET', 'GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']);
    return method === 'GET' || method === 'OPTIONS' ? { method, url: `${path}${query(r, cat, undefined, r.int(2))}`, headers: {} } : jsonRequest(method, path, nastyJson(r, cat.known));
  }],
];

/** The next request of the stream. */
export function nextRequest(r: Random, cat: Catalog): FuzzRequest {
  return r.weighted(KINDS)(r, cat);
}
