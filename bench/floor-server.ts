/**
 * The floor: a bare Fastify route that answers with fixed, pre-serialized bytes (a page the
 * service rendered), so the harness can state how far each list figure is from what Node +
 * Fastify + the client can do at all on this machine with the same bytes.
 *
 *   node --import tsx bench/floor-server.ts <body-dir>
 *
 * `GET /floor/<file>` answers with `<body-dir>/<file>`, read on its first request and kept, so
 * the harness can add bodies while the server runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';

const [dir] = process.argv.slice(2);
if (!dir) {
  console.error('usage: floor-server.ts <body-dir>');
  process.exit(2);
}
const bodies = new Map<string, Buffer>();
const app = Fastify({ logger: false });
app.get<{ Params: { file: string } }>('/floor/:file', (req, reply) => {
  const name = path.basename(req.params.file);
  let body = bodies.get(name);
  if (!body) bodies.set(name, (body = fs.readFileSync(path.join(dir, name))));
  reply.header('content-type', 'application/json').send(body);
});
app.get('/health/', (_req, reply) => {
  reply.send({ status: 'ok' });
});
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });
