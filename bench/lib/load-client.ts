/**
 * autocannon, the bench's load generator, without its per-response body string.
 *
 * autocannon 9 appends every body chunk to a string (`req.body += chunk`, in
 * lib/pipelinedRequestsQueue.js) whether or not anything reads it. For a body with a few
 * non-ASCII bytes that costs the client 10-20x more than the same length in ASCII (a 458 kB
 * depth-1 device page: 150-230 req/s against 1 650-4 600 with those 600 bytes replaced, from the
 * same bare route), so the client, not the server, set the pace of every page naming a city
 * like Zürich. The bench never reads bodies under load (no `expectBody`, `verifyBody` or
 * `onResponse`), so the chunks are dropped; bytes, status codes and latencies are counted
 * as before (the parser still reads every byte).
 */
import { createRequire } from 'node:module';
import autocannon from 'autocannon';

const require = createRequire(import.meta.url);
const queue = require('autocannon/lib/pipelinedRequestsQueue.js') as { prototype: { addBody(data: unknown): void } };
queue.prototype.addBody = function dropBody(): void {};

export default autocannon;
