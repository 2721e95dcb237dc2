// The KV engine through the example server, driven by node-vault, a third-party Vault client from npm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import vault from 'node-vault';
import { failure, startServer, type Started } from './harness.js';

let started: Started;
let client: vault.client;

beforeAll(async () => {
  started = await startServer();
  client = vault({ endpoint: started.url, token: started.rootToken });
}, 120_000);

afterAll(() => started?.stop());

describe('KV v2 over HTTP with node-vault', () => {
  it('writes versions with check-and-set and reads any of them back', async () => {
    const first = await client.write('secret/data/app/db', { data: { password: 'one' }, options: { cas: 0 } });
    expect(first.data).toMatchObject({ version: 1, destroyed: false, deletion_time: '' });
    expect(first.data.created_time).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);

    const second = await client.write('secret/data/app/db', { data: { password: 'two' }, options: { cas: 1 } });
    expect(second.data.version).toBe(2);

    const stale = await failure(client.write('secret/data/app/db', { data: { password: 'x' }, options: { cas: 1 } }));
    expect(stale.statusCode).toBe(400);
    expect(stale.body.errors[0]).toContain('check-and-set parameter did not match the current version');

    const latest = await client.read('secret/data/app/db');
    expect(latest.data.data).toEqual({ password: 'two' });
    expect(latest.data.metadata.version).toBe(2);
    const old = await client.read('secret/data/app/db?version=1');
    expect(old.data.data).toEqual({ password: 'one' });
  });

  it('wraps answers in the Vault envelope', async () => {
    const read = await client.read('secret/data/app/db');
    expect(read).toMatchObject({
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      wrap_info: null,
      warnings: null,
      auth: null,
    });
    expect(read.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('applies a JSON merge PATCH as a new version', async () => {
    await client.write('secret/data/patched', { data: { keep: 'yes', drop: 'soon', nested: { a: 1 } } });
    const patched = await client.update('secret/data/patched', { data: { drop: null, nested: { b: 2 }, added: true } });
    expect(patched.data.version).toBe(2);
    const read = await client.read('secret/data/patched');
    expect(read.data.data).toEqual({ keep: 'yes', nested: { a: 1, b: 2 }, added: true });
  });

  it('refuses a PATCH without the merge-patch content type with 415', async () => {
    const refused = await failure(
      client.request({
        method: 'PATCH',
        path: '/secret/data/patched',
        json: { data: { x: 1 } },
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    expect(refused.statusCode).toBe(415);
  });

  it('soft-deletes, undeletes and destroys versions', async () => {
    await client.write('secret/data/lifecycle', { data: { v: 1 } });
    await client.write('secret/data/lifecycle', { data: { v: 2 } });

    await client.delete('secret/data/lifecycle');
    const deleted = await failure(client.read('secret/data/lifecycle'));
    expect(deleted.statusCode).toBe(404);
    expect(deleted.body.data.data).toBeNull();
    expect(deleted.body.data.metadata.deletion_time).not.toBe('');

    await client.write('secret/undelete/lifecycle', { versions: [2] });
    expect((await client.read('secret/data/lifecycle')).data.data).toEqual({ v: 2 });

    await client.write('secret/delete/lifecycle', { versions: [1] });
    expect((await failure(client.read('secret/data/lifecycle?version=1'))).statusCode).toBe(404);

    await client.destroySecretVersions({ mount_point: 'secret', path: 'lifecycle', versions: [1] });
    const destroyed = await failure(client.read('secret/data/lifecycle?version=1'));
    expect(destroyed.body.data.metadata.destroyed).toBe(true);
  });

  it('reads and writes key metadata, then deletes the key with all its versions', async () => {
    await client.write('secret/metadata/lifecycle', { max_versions: 5, custom_metadata: { owner: 'team-a' } });
    const metadata = await client.read('secret/metadata/lifecycle');
    expect(metadata.data).toMatchObject({ max_versions: 5, current_version: 2, custom_metadata: { owner: 'team-a' } });
    expect(Object.keys(metadata.data.versions)).toEqual(['1', '2']);
    expect(metadata.data.versions['1'].destroyed).toBe(true);

    // custom_metadata comes along with every data read.
    expect((await client.read('secret/data/lifecycle')).data.metadata.custom_metadata).toEqual({ owner: 'team-a' });

    await client.delete('secret/metadata/lifecycle');
    expect((await failure(client.read('secret/metadata/lifecycle'))).statusCode).toBe(404);
    expect((await failure(client.read('secret/data/lifecycle'))).statusCode).toBe(404);
  });

  it('lists keys with the LIST method and with GET ?list=true alike', async () => {
    await client.write('secret/data/team/alpha', { data: { a: 1 } });
    await client.write('secret/data/team/beta', { data: { b: 1 } });
    await client.write('secret/data/team/sub/gamma', { data: { c: 1 } });

    const listed = await client.list('secret/metadata/team');
    expect(listed.data.keys).toEqual(['alpha', 'beta', 'sub/']);

    const plainGet = vault({ endpoint: started.url, token: started.rootToken, noCustomHTTPVerbs: true });
    expect((await plainGet.list('secret/metadata/team/')).data.keys).toEqual(['alpha', 'beta', 'sub/']);

    expect((await failure(client.list('secret/metadata/nothing-here'))).statusCode).toBe(404);
  });

  it('answers sys/health without a token', async () => {
    const anonymous = vault({ endpoint: started.url });
    expect(await anonymous.health()).toMatchObject({ initialized: true, sealed: false, standby: false });
  });

  it('refuses requests without a valid token with 403', async () => {
    const anonymous = vault({ endpoint: started.url });
    expect((await failure(anonymous.read('secret/data/app/db'))).statusCode).toBe(403);
    const forged = vault({ endpoint: started.url, token: 'sr.not-a-token' });
    const refused = await failure(forged.write('secret/data/app/db', { data: { x: 1 } }));
    expect(refused).toEqual({ statusCode: 403, body: { errors: ['permission denied'] } });
    expect((await client.read('secret/data/app/db')).data.data).toEqual({ password: 'two' });
  });
});
