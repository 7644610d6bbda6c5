import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextSink } from '../../src/core/text-sink.js';

/** A body of about `bytes` bytes, non-ASCII included, with a span written twice, flushed piece by piece as rows are. */
function body(sink: TextSink, bytes: number, letter: string): string {
  const piece = `{"${letter}":"${letter.repeat(60)} → ${letter}"}`;
  sink.reset();
  const start = sink.mark();
  sink.add(piece);
  const end = sink.mark();
  sink.repeat(start, end);
  let text = piece + piece;
  while (Buffer.byteLength(text) < bytes) {
    sink.add(`,${piece}`);
    sink.flush();
    text += `,${piece}`;
  }
  return text;
}

test('bodies taken from one sink, large (handed out) and small (copied), stay intact while it writes the next ones', () => {
  const sink = new TextSink();
  const taken: [Buffer, string][] = [];
  for (const [bytes, letter] of [[250_000, 'a'], [260_000, 'b'], [100_000, 'c'], [600_000, 'd'], [900_000, 'e'], [1_000, 'f'], [200_000, 'g']] as const) {
    const text = body(sink, bytes, letter);
    taken.push([sink.take(), text]);
  }
  for (const [bytes, text] of taken) assert.equal(bytes.toString(), text);
});
