import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp } from '../../helpers/app.js';
import { cable, makeDevices, makeInterface } from './cable-topology.js';
import type { TestApp } from '../../helpers/app.js';

/**
 * At depth 0 a generic relation renders `{id, object_type, url}` (or null when its target is
 * gone): its target's row is read, not the rows its display and natural key are made of. An
 * owner whose own display is made of a generic target's declares it (display_needs), and still
 * shows it.
 */

let t: TestApp;
let d: Record<string, any>;

/** The statement texts one GET runs, and its body. */
async function statementsOf(path: string): Promise<{ texts: string[]; body: any }> {
  const dialect = t.app.services.dialect as any;
  const texts: string[] = [];
  const wrap = (name: string) => {
    const original = dialect[name];
    if (typeof original !== 'function') return () => {};
    dialect[name] = (exec: unknown, text: string, params: unknown) => { texts.push(text); return original.call(dialect, exec, text, params); };
    return () => { dialect[name] = original; };
  };
  const undo = [wrap('readRows'), wrap('readArrays')];
  const executeQuery = dialect.db.executeQuery;
  dialect.db.executeQuery = (q: { sql: string }) => { texts.push(q.sql); return executeQuery.call(dialect.db, q); };
  try {
    const res = await t.call('GET', path, undefined, { headers: { 'cache-control': 'no-cache' } });
    assert.equal(res.status, 200, res.raw.slice(0, 300));
    return { texts, body: res.body };
  } finally {
    undo.forEach((f) => f());
    dialect.db.executeQuery = executeQuery;
  }
}

before(async () => {
  t = await makeApp();
  d = await makeDevices(t, ['a', 'b']);
  const [x, y] = [await makeInterface(t, d.a, 'x0'), await makeInterface(t, d.b, 'y0')];
  await cable(t, ['dcim.interface', x], ['dcim.interface', y]);
});
after(() => t.close());

describe('generic relations at depth 0', () => {
  it('should read the ends of cables but not their devices for a cable list at depth 0', async () => {
    const { texts, body } = await statementsOf('/api/dcim/cables/');
    assert.equal(body.results.length, 1);
    assert.equal(body.results[0].termination_a.object_type, 'dcim.interface');
    assert.ok(texts.some((s) => /from "dcim_interface"/i.test(s)), 'the ends are read (a missing one renders null)');
    assert.ok(!texts.some((s) => /from "dcim_device"/i.test(s)), `no device read:\n${texts.join('\n')}`);
  });

  it('should still render the ends whole at depth 1', async () => {
    const { body } = await statementsOf('/api/dcim/cables/?depth=1');
    assert.equal(body.results[0].termination_a.name, 'x0');
    assert.equal(body.results[0].termination_a.device.id, d.a.id);
  });

  it('should show the assigned object in a note display (a display made of a generic target and its own needs)', async () => {
    // An unnamed device's display is made of its device type's: two levels below the note.
    const unnamed = await t.call('POST', '/api/dcim/devices/', { device_type: d.a.device_type.id, role: d.a.role.id, location: d.a.location.id, status: 'Active' });
    assert.equal(unnamed.status, 201, unnamed.raw.slice(0, 300));
    const made = await t.call('POST', '/api/extras/notes/', { assigned_object_type: 'dcim.device', assigned_object_id: unnamed.body.id, note: 'hello' });
    assert.equal(made.status, 201, made.raw.slice(0, 300));
    const { body } = await statementsOf(`/api/extras/notes/?assigned_object_id=${unnamed.body.id}`);
    assert.ok(body.results[0].display.startsWith(`${unnamed.body.display} - `), `${body.results[0].display} against ${unnamed.body.display}`);
  });
});
