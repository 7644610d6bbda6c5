import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toNaturalSlug, trimTrailingNulls } from '../../src/core/natural-key.js';

test('natural slugs: parts slugified and joined with _, empty for null, the key\'s first four characters last', () => {
  const pk = 'a1b2c3d4-0000-0000-0000-000000000000';
  assert.equal(toNaturalSlug(['Rome DC', null, 'Zürich Süd'], pk), 'rome-dc__zurich-sud_a1b2');
  assert.equal(toNaturalSlug([], pk), 'a1b2');
  assert.equal(toNaturalSlug([undefined, 12], pk), '_12_a1b2');
  // A stored UTC timestamp is written as Python prints a datetime before it is slugified.
  assert.equal(toNaturalSlug(['2024-05-01T10:00:00.123Z', '2024-05-01T10:00:00Z'], pk), '2024-05-01-10-00-00-123000-00-00_2024-05-01-10-00-00-00-00_a1b2');
  assert.equal(toNaturalSlug(['2024-05-01T10:00:0Z'], pk), '2024-05-01t10-00-0z_a1b2');
});

test('trailing nulls are dropped, inner ones kept, the input left as it was', () => {
  const values = ['a', null, 'b', null, undefined];
  assert.deepEqual(trimTrailingNulls(values), ['a', null, 'b']);
  assert.equal(values.length, 5);
  assert.deepEqual(trimTrailingNulls([null]), []);
});
