import assert from 'node:assert/strict';

/**
 * A refusal: the status code and the whole error body (the reference's shape and message),
 * compared together so a failure shows both. An answer that accepts the request cannot pass.
 */
export function assertRefused(res: { status: number; body: unknown }, status: number, body: unknown, message?: string): void {
  assert.deepEqual({ status: res.status, body: res.body }, { status, body }, message);
}
