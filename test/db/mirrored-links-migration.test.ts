import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { create, makeApp } from '../helpers/app.js';
import { fillMirroredLinks } from '../../src/db/schema/mirrored-links.js';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

describe('migration 60: mirrored to-many fields of an older database', () => {
  it('should fill fields listing assignments from them, and both ends of a reverse pair', async () => {
    const { dialect, registry } = t.app.services;
    const group = await create(t, '/api/extras/secrets-groups/', { name: 'old-sg' });
    const secret = await create(t, '/api/extras/secrets/', { name: 'old-s', provider: 'environment-variable', parameters: { variable: 'Z' } });
    const assoc = await create(t, '/api/extras/secrets-groups-associations/', { secrets_group: group.id, secret: secret.id, access_type: 'Generic', secret_type: 'secret' });
    const contact = await create(t, '/api/extras/contacts/', { name: 'old-c' });
    const team = await create(t, '/api/extras/teams/', { name: 'old-t', contacts: [contact.id] });
    // What an older build left: empty mirrored link tables, team contacts without the contact side.
    await dialect.db.deleteFrom('extras_secretsgroup__secrets').execute();
    await dialect.db.deleteFrom('extras_contact__teams').execute();
    assert.deepEqual((await t.call('GET', `/api/extras/secrets-groups/${group.id}/`)).body.secrets, []);
    await fillMirroredLinks(dialect, registry);
    await fillMirroredLinks(dialect, registry);
    assert.deepEqual((await t.call('GET', `/api/extras/secrets-groups/${group.id}/`)).body.secrets.map((s: any) => s.id), [assoc.id]);
    assert.deepEqual((await t.call('GET', `/api/extras/contacts/${contact.id}/`)).body.teams.map((x: any) => x.id), [team.id]);
  });
});
