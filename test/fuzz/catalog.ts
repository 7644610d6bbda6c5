import { TOKEN } from '../helpers/app.js';
import type { TestApp } from '../helpers/app.js';
import type { Known } from './values.js';

/** One list endpoint as the API describes itself: its filters (OpenAPI), its writable fields (OPTIONS) and some real objects. */
export type Endpoint = {
  path: string;
  filters: { name: string; schema?: any }[];
  fields: { name: string; type?: string; choices?: { value: unknown }[]; max_length?: number; required?: boolean }[];
  ids: string[];
  methods: Set<string>;
};

/** Everything the requests are derived from. */
export type Catalog = { endpoints: Endpoint[]; extras: { path: string; methods: Set<string>; params: { name: string; schema?: any }[] }[]; others: string[]; known: Known };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Reads the OpenAPI document, every list's OPTIONS and a few rows of every list. */
const STREAMS = new Set(['/extras/object-changes/stream/']);

export async function buildCatalog(t: TestApp): Promise<Catalog> {
  const doc = (await t.call('GET', '/api/swagger.json')).body;
  const paths = Object.keys(doc.paths) as string[];
  const known: Known = { ids: [], urls: [], names: [] };
  const endpoints: Endpoint[] = [];
  const extras: Catalog['extras'] = [];
  const others: string[] = [];
  for (const rel of paths) {
    // Event streams answer for as long as the reader stays (test/events covers them), so a request there never ends.
    if (STREAMS.has(rel)) continue;
    const ops = doc.paths[rel];
    const methods = new Set(METHODS.filter((m) => ops[m]).map((m) => m.toUpperCase()));
    const params = ((ops.get ?? ops.post)?.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => ({ name: p.name, schema: p.schema }));
    if (rel.includes('{')) {
      if (!/\{id\}\/$/.test(rel)) extras.push({ path: `/api${rel}`, methods, params });
      continue;
    }
    if (!paths.includes(`${rel}{id}/`)) {
      others.push(`/api${rel}`);
      continue;
    }
    const path = `/api${rel}`;
    const options = await t.call('OPTIONS', path);
    const post = options.body?.actions?.POST ?? {};
    const fields = Object.entries(post).filter(([, f]: [string, any]) => !f.read_only).map(([name, f]: [string, any]) => ({ name, ...f }));
    const page = await t.call('GET', `${path}?limit=3`);
    // The fuzzer's own user and token stay out of reach: deleting them would turn the rest of the run into 403s.
    const rows = ((page.body?.results ?? []) as Record<string, unknown>[]).filter((row) => row.username !== 'admin' && row.key !== TOKEN && (row.user as { username?: string } | undefined)?.username !== 'admin');
    for (const row of rows) {
      if (row.id !== undefined) known.ids.push(String(row.id));
      if (typeof row.url === 'string') known.urls.push(row.url);
      if (typeof row.name === 'string') known.names.push(row.name);
    }
    endpoints.push({ path, filters: params, fields, ids: rows.map((row) => String(row.id)), methods });
  }
  return { endpoints, extras, others, known };
}
