// A secrets engine's life over Vault's API, as hvac's test_mount and test_kv_v2 drive it: enabled, listed, used, tuned,
// moved with its data, and disabled with its data; and each refusal Vault makes of a path or a type, with its words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type Started } from '../harness.js';

const ROOT = 'sr.mounts';
let started: Started;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: ROOT, ...options });
const enable = (path: string, body: unknown) => send({ method: 'POST', path: `/v1/sys/mounts/${path}`, body });
const listed = async () => (await send({ path: '/v1/sys/mounts' })).json;
/** 768h, the system's lease TTLs when no server option sets others (hvac's test config sets the same). */
const SYSTEM_TTL = 2_764_800;

beforeAll(async () => {
  started = await startServer({ rootToken: ROOT });
});
afterAll(() => started?.stop());

describe('a KV version 2 mount', () => {
  it('is enabled as hvac enables it (version as a number), listed at the top level and under data', async () => {
    // hvac sends every field, null when unset.
    const body = { type: 'kv', description: null, config: null, options: { version: 2 }, plugin_name: null };
    expect((await enable('kvv2', { ...body, local: false, seal_wrap: false })).status).toBe(204);
    const table = await listed();
    expect(table.data['kvv2/']).toMatchObject({ type: 'kv', options: { version: '2' }, description: '' });
    expect(table['kvv2/']).toEqual(table.data['kvv2/']);
    expect(table.data['secret/']).toMatchObject({ type: 'kv', options: { version: '2' } });
  });

  it('serves its own secrets, apart from secret/', async () => {
    const write = await send({ method: 'POST', path: '/v1/kvv2/data/app', body: { data: { in: 'kvv2' } } });
    expect(write.status).toBe(200);
    expect((await send({ path: '/v1/kvv2/data/app' })).json.data.data).toEqual({ in: 'kvv2' });
    expect((await send({ path: '/v1/secret/data/app' })).status).toBe(404);
    // Its own engine config too.
    expect((await send({ method: 'POST', path: '/v1/kvv2/config', body: { max_versions: 3 } })).status).toBe(204);
    expect((await send({ path: '/v1/kvv2/config' })).json.data.max_versions).toBe(3);
    expect((await send({ path: '/v1/secret/config' })).json.data.max_versions).toBe(0);
  });

  it('takes "kv-v2" as a type, the body of `vault secrets enable kv-v2`, and PUT as POST', async () => {
    const config = { default_lease_ttl: '0s', max_lease_ttl: '0s', force_no_cache: false, options: null };
    const cli = { type: 'kv-v2', description: '', config, local: false, seal_wrap: false, options: null };
    expect((await enable('aliased', { ...cli, external_entropy_access: false })).status).toBe(204);
    expect((await listed()).data['aliased/'].options).toEqual({ version: '2' });
    // PUT is POST, as everywhere in Vault's API.
    expect((await send({ method: 'PUT', path: '/v1/sys/mounts/put', body: { type: 'kv-v2' } })).status).toBe(204);
    expect((await send({ method: 'DELETE', path: '/v1/sys/mounts/put' })).status).toBe(204);
  });

  it('tunes its TTLs, answered in seconds, the system default when unset', async () => {
    const tune = async () => (await send({ path: '/v1/sys/mounts/kvv2/tune' })).json.data;
    expect(await tune()).toMatchObject({ default_lease_ttl: SYSTEM_TTL, max_lease_ttl: SYSTEM_TTL, description: '' });
    const tuned = { default_lease_ttl: '3600s', max_lease_ttl: '8600s', description: 'tuned' };
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/kvv2/tune', body: tuned })).status).toBe(204);
    expect(await tune()).toMatchObject({ default_lease_ttl: 3600, max_lease_ttl: 8600, description: 'tuned' });
    expect((await listed()).data['kvv2/'].config).toMatchObject({ default_lease_ttl: 3600, max_lease_ttl: 8600 });
    // The Vault CLI sends both TTLs, empty unless its flags are given: empty leaves them as they are.
    const cli = { default_lease_ttl: '', max_lease_ttl: '', options: null, force_no_cache: false, token_type: '' };
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/kvv2/tune', body: cli })).status).toBe(204);
    expect(await tune()).toMatchObject({ default_lease_ttl: 3600, max_lease_ttl: 8600 });
    // "system" goes back to the system's value.
    await send({ method: 'POST', path: '/v1/sys/mounts/kvv2/tune', body: { max_lease_ttl: 'system' } });
    expect((await tune()).max_lease_ttl).toBe(SYSTEM_TTL);
  });

  it('refuses a tune Vault refuses, with its words', async () => {
    const refused = async (body: unknown) =>
      (await send({ method: 'POST', path: '/v1/sys/mounts/kvv2/tune', body })).json;
    expect(await refused({ default_lease_ttl: '2h', max_lease_ttl: '1h' })).toEqual({
      errors: ['backend max lease TTL of 3600 would be less than backend default lease TTL of 7200'],
    });
    expect(await refused({ options: { version: '1' } })).toEqual({ errors: ['cannot downgrade mount from version 2'] });
    expect(await refused({ options: { version: '3' } })).toEqual({ errors: ['invalid version provided: "3"'] });
    expect(await refused({ listing_visibility: 'unauth' })).toEqual({
      errors: ['listing_visibility is not supported by this server'],
    });
    const missing = await send({ method: 'POST', path: '/v1/sys/mounts/nowhere/tune', body: {} });
    expect(missing.json).toEqual({ errors: ['tune of path "nowhere/" failed: no mount entry found'] });
  });

  it('moves with its data on sys/remount, and answers a migration id whose status is success', async () => {
    const moved = await send({ method: 'POST', path: '/v1/sys/remount', body: { from: 'kvv2', to: 'moved' } });
    expect(moved.status).toBe(200);
    const id = moved.json.data.migration_id as string;
    const status = await send({ path: `/v1/sys/remount/status/${id}` });
    expect(status.json.data).toEqual({
      migration_id: id,
      migration_info: { source_mount: 'kvv2/', target_mount: 'moved/', status: 'success' },
    });
    const table = await listed();
    expect(table.data['kvv2/']).toBeUndefined();
    expect(table.data['moved/']).toMatchObject({ description: 'tuned', config: { default_lease_ttl: 3600 } });
    expect((await send({ path: '/v1/moved/data/app' })).json.data.data).toEqual({ in: 'kvv2' });
    expect((await send({ path: '/v1/moved/config' })).json.data.max_versions).toBe(3);
    expect((await send({ path: '/v1/kvv2/data/app' })).status).toBe(404);
  });

  it('is disabled with its data: a mount enabled again at the path starts empty; a missing one answers 204', async () => {
    expect((await send({ method: 'DELETE', path: '/v1/sys/mounts/moved' })).status).toBe(204);
    expect((await listed()).data['moved/']).toBeUndefined();
    expect((await send({ path: '/v1/moved/data/app' })).status).toBe(404);
    expect((await enable('moved', { type: 'kv', options: { version: '2' } })).status).toBe(204);
    expect((await send({ path: '/v1/moved/data/app' })).status).toBe(404);
    expect((await send({ method: 'LIST', path: '/v1/moved/metadata/' })).status).toBe(404);
    expect((await send({ method: 'DELETE', path: '/v1/sys/mounts/moved' })).status).toBe(204);
    expect((await send({ method: 'DELETE', path: '/v1/sys/mounts/never-there' })).status).toBe(204);
  });
});

describe('what Vault refuses', () => {
  it.each([
    ['secret', { type: 'kv-v2' }, 409, 'path is already in use at secret/'],
    ['secret/inner', { type: 'kv-v2' }, 409, 'path is already in use at secret/'],
    ['aliased/deeper/', { type: 'kv-v2' }, 409, 'path is already in use at aliased/'],
    ['sys', { type: 'kv-v2' }, 403, 'cannot mount "sys/"'],
    ['auth/elsewhere', { type: 'kv-v2' }, 403, 'cannot mount "auth/elsewhere/"'],
    ['cubbyhole', { type: 'kv-v2' }, 403, 'cannot mount "cubbyhole/"'],
    ['blank', { type: '' }, 400, 'backend type must be specified as a string'],
    ['transit', { type: 'transit' }, 400, 'plugin not found in the catalog: transit'],
    ['kv3', { type: 'kv', options: { version: '3' } }, 400, 'invalid version provided: "3"'],
    [
      'ttls',
      { type: 'kv-v2', config: { default_lease_ttl: '2h', max_lease_ttl: '1h' } },
      400,
      'backend max lease TTL of 3600 would be less than backend default lease TTL of 7200',
    ],
  ])('POST sys/mounts/%s with %j: %i %s', async (path, body, status, message) => {
    const answer = await enable(path, body);
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual({ errors: [message] });
  });

  it('serves KV version 1 for "kv" without a version, version 1 and "generic", with the tuned lease', async () => {
    for (const [path, body] of [
      ['kvv1', { type: 'kv', options: { version: 1 } }],
      ['plain', { type: 'kv' }],
      ['generic', { type: 'generic' }],
    ] as const) {
      expect((await enable(path, body)).status).toBe(204);
      expect((await listed()).data[`${path}/`]).toMatchObject({ type: 'kv', options: { version: '1' } });
      const written = await send({ method: 'POST', path: `/v1/${path}/app/db`, body: { password: path } });
      expect(written.status).toBe(204);
      const read = await send({ path: `/v1/${path}/app/db` });
      expect([read.json.data, read.json.lease_duration]).toEqual([{ password: path }, SYSTEM_TTL]);
      expect((await send({ method: 'LIST', path: `/v1/${path}/app` })).json.data.keys).toEqual(['db']);
    }
    expect(
      (await send({ method: 'POST', path: '/v1/sys/mounts/plain/tune', body: { default_lease_ttl: '1h' } })).status,
    ).toBe(204);
    expect((await send({ path: '/v1/plain/app/db' })).json.lease_duration).toBe(3600);
    for (const path of ['plain', 'generic']) await send({ method: 'DELETE', path: `/v1/sys/mounts/${path}` });
  });

  it('upgrades a KV version 1 mount to version 2 in place when tuned so, its data kept as version 1 of each key', async () => {
    await send({ method: 'POST', path: '/v1/kvv1/app/api', body: { key: 'k1' } });
    const tune = { options: { version: '2' } };
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/kvv1/tune', body: tune })).status).toBe(204);
    expect((await listed()).data['kvv1/'].options).toEqual({ version: '2' });
    const read = await send({ path: '/v1/kvv1/data/app/db' });
    expect([read.json.data.data, read.json.data.metadata.version]).toEqual([{ password: 'kvv1' }, 1]);
    expect((await send({ method: 'LIST', path: '/v1/kvv1/metadata/app' })).json.data.keys).toEqual(['api', 'db']);
    const back = { options: { version: '1' } };
    const downgrade = await send({ method: 'POST', path: '/v1/sys/mounts/kvv1/tune', body: back });
    expect([downgrade.status, downgrade.json.errors]).toEqual([400, ['cannot downgrade mount from version 2']]);
  });

  it('refuses sys/remount from nothing, into another mount, and across the auth/ line', async () => {
    const remount = async (from: string, to: string) =>
      (await send({ method: 'POST', path: '/v1/sys/remount', body: { from, to } })).json;
    expect(await remount('nowhere', 'x')).toEqual({ errors: ['no matching mount at "nowhere/"'] });
    expect(await remount('aliased', 'secret/x')).toEqual({ errors: ['path is already in use at secret/'] });
    expect(await remount('aliased', 'auth/x')).toEqual({ errors: ['cannot remount to destination "auth/x/"'] });
    expect(await remount('auth/aws', 'elsewhere')).toEqual({
      errors: ['cannot remount auth mount to non-auth mount "elsewhere/"'],
    });
    expect(await remount('aliased', 'a/../b')).toEqual({ errors: ["path 'a/../b/' does not match its cleaned form"] });
    expect(await remount('', 'x')).toEqual({ errors: ["both 'from' and 'to' path must be specified as a string"] });
  });
});

describe('change events', () => {
  it('follow the engine first mounted at secret/, and stop once it is moved', async () => {
    const subscribe = () => send({ path: '/v1/sys/events/subscribe/secret', headers: { Connection: 'close' } });
    expect((await send({ method: 'POST', path: '/v1/sys/remount', body: { from: 'secret', to: 'kept' } })).status).toBe(
      200,
    );
    const refused = await subscribe();
    expect(refused.status).toBe(404);
    expect(refused.json).toEqual({
      errors: ['change events follow the KV engine first mounted at secret/, which is no longer there'],
    });
    // A new secret/ is another engine, with other data: its changes are not these events either.
    expect((await enable('secret', { type: 'kv-v2' })).status).toBe(204);
    expect((await subscribe()).status).toBe(404);
  });
});
