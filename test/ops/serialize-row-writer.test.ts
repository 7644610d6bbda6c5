import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextSink } from '../../src/core/text-sink.js';
import { compileRowWriter } from '../../src/ops/serialize/row-writer.js';
import type { Part, TextState } from '../../src/ops/serialize/render-text.js';
import type { Row } from '../../src/core/registry/types.js';

/** What a generated writer writes for `row` (with `extra` as a last member), as text. */
function written(parts: Part[], row: Row, extra?: string): string {
  const sink = new TextSink();
  const state = { sink, base: {} } as unknown as TextState;
  compileRowWriter(parts)(state, row, 0, extra);
  return sink.take().toString();
}

/** The text JSON.stringify gives of the object the same parts make. */
function expected(parts: Part[], row: Row, extra?: [string, unknown]): string {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    const name = JSON.parse(`${part.key.slice(0, -1)}`) as string;
    if ('json' in part) out[name] = part.json({} as never, row, 0);
    else if ('text' in part) out[name] = JSON.parse(part.text({} as never, row));
    else out[name] = 'written';
  }
  if (extra) out[extra[0]] = extra[1];
  return JSON.stringify(out);
}

const json = (name: string, value: (row: Row) => unknown): Part => ({ key: `${JSON.stringify(name)}:`, json: (_state, row) => value(row) });
const text = (name: string): Part => ({ key: `${JSON.stringify(name)}:`, text: (_state, row) => JSON.stringify(`u/${String(row.id)}`) });
const write = (name: string): Part => ({ key: `${JSON.stringify(name)}:`, write: (state) => state.sink.add('"written"') });

test('a generated row writer writes the fields in order, left-out values leaving their keys out', () => {
  const maybe = (row: Row) => (row.id === 'a' ? undefined : row.id);
  const shapes: Part[][] = [
    [],
    [json('id', (row) => row.id), text('url'), json('name "quoted"\n', () => 'x → "y"'), write('rel'), json('n', () => 1.5)],
    [json('gone', maybe), json('also', maybe), text('url')],
    [json('gone', maybe), write('rel'), json('gone2', maybe)],
    [json('only', maybe)],
    [write('rel'), json('gone', maybe), json('set', () => ({ a: [1, null] }))],
  ];
  for (const parts of shapes) {
    for (const id of ['a', 'b']) {
      assert.equal(written(parts, { id }), expected(parts, { id }), `${parts.map((p) => p.key).join('')} ${id}`);
      assert.equal(written(parts, { id }, '"generic_foreign_key":true'), expected(parts, { id }, ['generic_foreign_key', true]));
    }
  }
});

test('field names never become code: a name that would break a generated function is only a key', () => {
  const parts = [json('x"); throw new Error("no"); ("', () => 1), json('`${1}`', () => 2)];
  assert.equal(written(parts, { id: 'a' }), '{"x\\"); throw new Error(\\"no\\"); (\\"":1,"`${1}`":2}');
});
