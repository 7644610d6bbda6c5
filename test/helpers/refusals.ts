import assert from 'node:assert/strict';
import type { TestApp } from './app.js';

/**
 * A refusal: the status code and the whole error body (the reference's shape and message),
 * compared together so a failure shows both. An answer that accepts the request cannot pass.
 */
export function assertRefused(res: { status: number; body: unknown }, status: number, body: unknown, message?: string): void {
  assert.deepEqual({ status: res.status, body: res.body }, { status, body }, message);
}

/** The `count` of a list GET (fails on any non-200): compared before and after a refused write, it shows nothing was written. */
export async function countOf(t: TestApp, url: string): Promise<number> {
  const res = await t.call('GET', url);
  assert.equal(res.status, 200, `${url}: ${res.raw}`);
  return res.body.count;
}

/** The reference's refusal of a custom field, computed field or relationship key that is not a Python/GraphQL identifier. */
export const KEY_NOT_IDENTIFIER = 'This key is not Python/GraphQL safe. Please do not start the key with a digit and do not use hyphens or whitespace';
