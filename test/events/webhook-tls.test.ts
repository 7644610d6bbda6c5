import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeApp, create } from '../helpers/app.js';
import { queueEvents } from '../../src/queue/index.js';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../helpers/app.js';

// Webhook TLS (ssl_verification, ca_file_path) against a local HTTPS receiver with a self-signed
// certificate made now, and the connect and read timeouts (shortened by their settings).
let t: TestApp;
let dir: string;
let tlsServer: https.Server;
let silent: net.Server;
const received: string[] = [];

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  // Answers every request at once, except /hang (no answer ever).
  tlsServer = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.url));
      if (req.url !== '/hang') res.end('ok');
    });
  });
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  // Accepts connections and never says a word (a TLS handshake that never ends).
  silent = net.createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t = await makeApp({ webhooks: { allowedHosts: ['127.0.0.1'], additionalBlockedNetworks: [], allowedSchemes: ['http', 'https'], maxAttempts: 1, retryBackoffMs: 0, connectTimeoutMs: 300, readTimeoutMs: 300 } });
});

after(async () => {
  await t.close();
  tlsServer.closeAllConnections();
  await new Promise((resolve) => tlsServer.close(resolve));
  await new Promise((resolve) => silent.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The ending log entry (success or failure) of the delivery of webhook `name`, once there is one. */
async function outcome(name: string): Promise<{ log_level: string; message: string }> {
  const events = queueEvents(t.app.services);
  for (;;) {
    const attempted = new Promise<void>((resolve) => events.once('attempt', () => resolve()));
    const logs = await t.call('GET', '/api/extras/job-logs/?limit=0');
    const ended = logs.body.results.map((l: any) => ({ ...l, log_level: l.log_level?.value ?? l.log_level }))
      .find((l: any) => l.log_object === name && (l.log_level === 'success' || l.log_level === 'failure'));
    if (ended) return ended;
    await attempted;
  }
}

test('TLS is verified against the system CAs or ca_file_path, or not at all; connect and read time out', async () => {
  const tlsBase = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
  const hooks = {
    untrusted: { payload_url: `${tlsBase}/untrusted` },
    'own ca': { payload_url: `${tlsBase}/own-ca`, ca_file_path: path.join(dir, 'cert.pem') },
    unverified: { payload_url: `${tlsBase}/unverified`, ssl_verification: false },
    'read timeout': { payload_url: `${tlsBase}/hang`, ssl_verification: false },
    'connect timeout': { payload_url: `https://127.0.0.1:${(silent.address() as AddressInfo).port}/`, ssl_verification: false },
  };
  for (const [name, extra] of Object.entries(hooks)) await create(t, '/api/extras/webhooks/', { name, content_types: ['dcim.manufacturer'], type_create: true, ...extra });
  await create(t, '/api/dcim/manufacturers/', { name: 'Secure' });
  const untrusted = await outcome('untrusted');
  assert.equal(untrusted.log_level, 'failure');
  assert.match(untrusted.message, /self[- ]signed certificate/);
  assert.equal((await outcome('own ca')).log_level, 'success');
  assert.equal((await outcome('unverified')).log_level, 'success');
  const read = await outcome('read timeout');
  assert.equal(read.log_level, 'failure');
  assert.match(read.message, /No answer from 127\.0\.0\.1:\d+ within 0\.3 s\.$/);
  const connect = await outcome('connect timeout');
  assert.equal(connect.log_level, 'failure');
  assert.match(connect.message, /Connection to 127\.0\.0\.1:\d+ timed out after 0\.3 s\.$/);
  assert.deepEqual(received.filter((url) => url !== '/hang').sort(), ['/own-ca', '/unverified']);
});
