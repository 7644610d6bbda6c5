import { randomUUID } from 'node:crypto';
import { toIsoMicro } from '../core/fields/scalar.js';
import type { Row } from '../core/registry/types.js';
import type { Exec } from '../db/store.js';
import type { Services } from '../ops/services.js';

/** Saves a file a job produced (of its job result) or received (an upload, of none) as a file proxy; returns the proxy's id. */
export async function saveFile(services: Services, spec: { jobResultId: string | null; name: string; content: string | Uint8Array }, db: Exec = services.dialect.db): Promise<string> {
  const id = randomUUID();
  const bytes = typeof spec.content === 'string' ? Buffer.from(spec.content, 'utf8') : Buffer.from(spec.content);
  await services.store.insert(db, services.registry.get('extras.fileproxy'), [{
    id, name: spec.name.slice(0, 255), uploaded_at: toIsoMicro(new Date()), job_result_id: spec.jobResultId, file: bytes.toString('base64'),
  }]);
  if (spec.jobResultId) {
    // The job result's `files` lists its file proxies (the reference's reverse relation).
    const results = services.registry.get('extras.jobresult');
    const files = results.fieldMap.get('files')!;
    const existing = (await services.store.links(db, results, files, [spec.jobResultId])).get(spec.jobResultId) ?? [];
    await services.store.setLinks(db, results, files, new Map([[spec.jobResultId, [...existing, id]]]));
  }
  return id;
}

/** A file proxy's bytes. */
export function fileBytes(row: Row): Buffer {
  return Buffer.from(String(row.file ?? ''), 'base64');
}

/** The content type a download is served with, from the file's extension (the reference guesses it the same way). */
export function contentTypeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return ({ csv: 'text/csv', yaml: 'application/yaml', yml: 'application/yaml', json: 'application/json', txt: 'text/plain', html: 'text/html', xml: 'application/xml' } as Record<string, string>)[ext] ?? 'application/octet-stream';
}
