import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JsonText, SharedJson } from '../../src/db/json-text.js';

describe('SharedJson', () => {
  it('should encode exactly as JSON.stringify, shared objects included', () => {
    const shared = { id: 'a', name: 'x "quoted"', nested: { list: [1, null, 'two'] } };
    const values: unknown[] = [
      { id: 1, parent: shared, tags: [shared, { id: 'b' }], skipped: undefined, empty: [], holes: [undefined, shared] },
      { id: 2, parent: shared, tags: [], when: new Date(0), text: 'line\nbreak' },
      [shared, 3, 'four', null],
      'plain',
      null,
      42,
    ];
    const json = new SharedJson();
    for (const value of values) assert.equal(json.text(value), JSON.stringify(value));
  });

  it('should read back as its value when stringified again', () => {
    assert.equal(JSON.stringify({ a: new JsonText('{"b":[1,2]}') }), '{"a":{"b":[1,2]}}');
  });
});
