import http from 'node:http';
import https from 'node:https';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

/** The reference's timeouts: 10 s to connect, 30 s between bytes of the answer. */
export const CONNECT_TIMEOUT_MS = 10_000;
export const READ_TIMEOUT_MS = 30_000;

/** At most this much of an answer's body is kept (for the attempt's log). */
const KEPT_BODY = 2048;

export type OutgoingRequest = {
  method: string;
  url: URL;
  /** The checked address the connection is pinned to (no second DNS look-up: no rebinding). */
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: Buffer;
  sslVerification: boolean;
  caFilePath: string;
  signal?: AbortSignal;
  /** Milliseconds to connect (TLS included) and between bytes of the answer (default: the reference's). */
  connectTimeoutMs?: number;
  readTimeoutMs?: number;
};

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

export type Answer = { status: number; body: string };

/** SNI names the URL's host, unless it is an address (RFC 6066: no SNI; the certificate is checked against the address). */
function serverName(url: URL): { servername?: string } {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? {} : { servername: host };
}

/** Always answers the checked address, whatever the name (Node may ask for one or for all). */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * Sends one request, following no redirect (a 3xx is the answer), with the reference's
 * timeouts; TLS verifies the URL's host name (SNI) against the system CAs or `caFilePath`,
 * unless `sslVerification` is off.
 */
export async function sendRequest(req: OutgoingRequest): Promise<Answer> {
  const secure = req.url.protocol === 'https:';
  const connectTimeout = req.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const readTimeout = req.readTimeoutMs ?? READ_TIMEOUT_MS;
  const ca = secure && req.sslVerification && req.caFilePath ? await readFile(req.caFilePath) : undefined;
  const options: https.RequestOptions = {
    method: req.method,
    headers: { ...req.headers, 'content-length': String(req.body.length) },
    lookup: pinnedLookup(req.address, req.family),
    signal: req.signal,
    agent: false,
    ...(secure ? { rejectUnauthorized: req.sslVerification, ca, ...serverName(req.url) } : {}),
  };
  return new Promise<Answer>((resolve, reject) => {
    const request = (secure ? https : http).request(req.url, options, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < KEPT_BODY) chunks.push(chunk.subarray(0, KEPT_BODY - kept));
        kept += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    const connectTimer = setTimeout(() => request.destroy(new Error(`Connection to ${req.url.host} timed out after ${seconds(connectTimeout)}.`)), connectTimeout);
    request.on('socket', (socket) => {
      const connected = () => clearTimeout(connectTimer);
      socket.once(secure ? 'secureConnect' : 'connect', connected);
    });
    request.setTimeout(readTimeout, () => request.destroy(new Error(`No answer from ${req.url.host} within ${seconds(readTimeout)}.`)));
    request.on('error', (err) => {
      clearTimeout(connectTimer);
      reject(err);
    });
    request.on('close', () => clearTimeout(connectTimer));
    request.end(req.body);
  });
}
