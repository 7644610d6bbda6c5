import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/core/config.js';

/** A stream that keeps what is written to it. */
function capture(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { chunks.push(String(chunk)); done(); } });
  return Object.assign(stream, { text: () => chunks.join('') });
}

/** An app on its own in-memory database, logging to `stream`; sends two requests. */
async function logTwoRequests(env: Record<string, string>, tty: boolean): Promise<string> {
  const stream = capture();
  const app = await buildApp({ config: loadConfig({ DATABASE_URL: 'sqlite::memory:', ...env }), logger: true, log: { stream, tty } });
  try {
    await app.inject({ method: 'GET', url: '/health/' });
    await app.inject({ method: 'GET', url: '/api/dcim/devices/' });
  } finally {
    await app.close();
  }
  return stream.text();
}

describe('request logs', () => {
  it('should write one JSON object per request when not on a terminal', async () => {
    const lines = (await logTwoRequests({}, false)).trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.url);
    assert.equal(lines.length, 2);
    assert.deepEqual(lines.map((l) => [l.method, l.url, l.status, l.msg.startsWith(`${l.method} ${l.url} ${l.status} `)]), [['GET', '/health/', 200, true], ['GET', '/api/dcim/devices/', 403, true]]);
    assert.equal(typeof lines[0].ms, 'number');
  });

  it('should write one readable line per request on a terminal', async () => {
    const text = await logTwoRequests({}, true);
    const lines = text.trim().split('\n').filter((l) => l.includes('GET '));
    assert.equal(lines.length, 2);
    assert.match(lines[0], /INFO.*GET \/health\/ 200 [\d.]+ ms/);
    assert.equal(lines[0].includes('{'), false);
  });

  it('should log only 5xx requests at LOG_LEVEL=warn, at error level', async () => {
    const stream = capture();
    const app = await buildApp({ config: loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'warn' }), logger: true, log: { stream, tty: false } });
    app.get('/boom/', async () => { throw new Error('boom'); });
    try {
      assert.equal((await app.inject({ method: 'GET', url: '/health/' })).statusCode, 200);
      assert.equal((await app.inject({ method: 'GET', url: '/api/dcim/devices/' })).statusCode, 403);
      assert.equal((await app.inject({ method: 'GET', url: '/boom/' })).statusCode, 500);
    } finally {
      await app.close();
    }
    const lines = stream.text().trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.url);
    assert.deepEqual(lines.map((l) => [l.level, l.method, l.url, l.status]), [[50, 'GET', '/boom/', 500]]);
  });

  it('should follow LOG_FORMAT over the terminal check', async () => {
    const json = (await logTwoRequests({ LOG_FORMAT: 'json' }, true)).trim().split('\n')[0];
    assert.equal(JSON.parse(json).url, '/health/');
    assert.match(await logTwoRequests({ LOG_FORMAT: 'pretty' }, false), /GET \/health\/ 200 [\d.]+ ms/);
    assert.throws(() => loadConfig({ LOG_FORMAT: 'xml' }), /LOG_FORMAT must be auto, json or pretty/);
  });
});
