import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonBuffer } from '../../src/core/json-buffer.js';

const same = (value: unknown, levels?: number) => assert.deepEqual(jsonBuffer(value, levels), Buffer.from(JSON.stringify(value)));

test('jsonBuffer writes the bytes JSON.stringify gives', () => {
  same({ count: 2, next: null, previous: 'http://x/?a=1&b="2"', results: [{ id: 'a', display: 'Asia → Italy → Rome', n: 1.5, t: true, o: { x: [1, null] } }, { id: 'b', s: 'Zürich \u2028 \ud83d\ude00' }] });
  same([{ a: 1 }, 'x', 3, null, [1, 2]]);
  same({ a: undefined, b: () => 1, c: Symbol('s'), d: 1 });
  same([undefined, () => 1, 2]);
  same({ when: new Date(0), nested: { when: new Date(1) } });
  same({ emptyArr: [], emptyObj: {}, deep: [[[{ a: [{}] }]]] }, 5);
  same('text');
  same(42);
  same(null);
  same({ 'k"ey\n': 'v' });
  same(Object.assign(Object.create(null), { a: 1 }));
});

test('jsonBuffer grows past its scratch space and stays exact', () => {
  const rows = Array.from({ length: 3000 }, (_, i) => ({ id: `row-${i}`, text: 'é→'.repeat(50 + (i % 7)), values: [i, i / 3] }));
  same({ count: rows.length, results: rows });
  same({ small: true });
});

test('jsonBuffer stays exact after a body larger than the scratch space it keeps', () => {
  const big = { results: Array.from({ length: 20000 }, (_, i) => ({ id: i, text: 'x→'.repeat(200) })) };
  same(big);
  same({ after: 'the big one', n: [1, 2, 3] });
});
