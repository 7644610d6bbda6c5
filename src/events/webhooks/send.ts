import http from 'node:http';
import https from 'node:https';
import { readFile } from 'node:fs/promises';
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
};

export type Answer = { status: number; body: string };

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
  const ca = secure && req.sslVerification && req.caFilePath ? await readFile(req.caFilePath) : undefined;
  const options: https.RequestOptions = {
    method: req.method,
    headers: { ...req.headers, 'content-length': String(req.body.length) },
    lookup: pinnedLookup(req.address, req.family),
    signal: req.signal,
    agent: false,
    ...(secure ? { rejectUnauthorized: req.sslVerification, ca, servername: req.url.hostname.replace(/^\[|\]$/g, '') } : {}),
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
    const connectTimer = setTimeout(() => request.destroy(new Error(`Connection to ${req.url.host} timed out after ${CONNECT_TIMEOUT_MS / 1000} s.`)), CONNECT_TIMEOUT_MS);
    request.on('socket', (socket) => {
      const connected = () => clearTimeout(connectTimer);
      socket.once(secure ? 'secureConnect' : 'connect', connected);
    });
    request.setTimeout(READ_TIMEOUT_MS, () => request.destroy(new Error(`No answer from ${req.url.host} within ${READ_TIMEOUT_MS / 1000} s.`)));
    request.on('error', (err) => {
      clearTimeout(connectTimer);
      reject(err);
    });
    request.on('close', () => clearTimeout(connectTimer));
    request.end(req.body);
  });
}
