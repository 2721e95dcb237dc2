// Several AWS auth mounts, as hvac's test_aws enables them: each with its own config, roles and tokens (its storage prefix holds its access lists too), its tuned TTL
// applied to its logins, its tokens renewed by the mount that issued them, and its data and tokens gone with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTokenServer, type TokenServer } from '../tokens/token-harness.js';

let server: TokenServer;
const send = (options: Parameters<TokenServer['send']>[0]) => server.send({ token: server.root, ...options });
const auths = async () => (await send({ path: '/v1/sys/auth' })).json;

beforeAll(async () => {
  server = await startTokenServer();
  await server.putPolicy('reader', 'path "secret/data/*" { capabilities = ["read"] }');
}, 60_000);
afterAll(() => server?.stop());

describe('AWS auth mounts', () => {
  it('are enabled as hvac enables them, and listed at the top level and under data', async () => {
    // hvac's enable_auth_method: the type, and `local` unless given as None.
    const enabled = await send({ method: 'POST', path: '/v1/sys/auth/aws-test', body: { type: 'aws', local: false } });
    expect(enabled.status).toBe(204);
    const listed = await auths();
    expect(Object.keys(listed.data).sort()).toEqual(['aws-test/', 'aws/', 'token/']);
    expect(listed['aws-test/']).toEqual(listed.data['aws-test/']);
    expect(listed.data['aws-test/'].accessor).not.toBe(listed.data['aws/'].accessor);
  });

  it('keep their own config and roles', async () => {
    await server.configure('aws-test');
    await server.putRole('web', { token_policies: ['reader'] }, 'aws-test');
    expect((await send({ path: '/v1/auth/aws-test/role/web' })).status).toBe(200);
    expect((await send({ path: '/v1/auth/aws/role/web' })).status).toBe(404);
    const identity = { iam_metadata: ['auth_type', 'client_arn'] };
    expect((await send({ method: 'POST', path: '/v1/auth/aws-test/config/identity', body: identity })).status).toBe(
      204,
    );
    expect((await send({ path: '/v1/auth/aws-test/config/identity' })).json.data.iam_metadata).toEqual(
      identity.iam_metadata,
    );
    expect((await send({ path: '/v1/auth/aws/config/identity' })).json.data.iam_metadata).not.toEqual(
      identity.iam_metadata,
    );
  });

  it('mint tokens named after the mount, renewed by the mount that issued them', async () => {
    const login = await server.login('web', 'aws-test');
    expect(login.status).toBe(200);
    const token = login.json.auth.client_token as string;
    expect((await server.lookup(token))?.display_name).toMatch(/^aws-test-/);
    expect((await server.lookup(token))?.path).toBe('auth/aws-test/login');
    const renewed = await server.send({ method: 'POST', path: '/v1/auth/token/renew-self', token, body: {} });
    expect(renewed.status).toBe(200);
  });

  it('apply their tuned max TTL to their logins', async () => {
    await server.putRole('long', { token_policies: ['reader'], token_ttl: 7200 }, 'aws-test');
    expect((await server.login('long', 'aws-test')).json.auth.lease_duration).toBe(7200);
    const tune = { default_lease_ttl: '10m', max_lease_ttl: '1h' };
    expect((await send({ method: 'POST', path: '/v1/sys/auth/aws-test/tune', body: tune })).status).toBe(204);
    expect((await send({ path: '/v1/sys/auth/aws-test/tune' })).json.data).toMatchObject({
      default_lease_ttl: 600,
      max_lease_ttl: 3600,
      token_type: 'default-service',
    });
    expect((await server.login('long', 'aws-test')).json.auth.lease_duration).toBe(3600);
    // The default mount keeps the system's.
    await server.putRole('long', { token_policies: ['reader'], token_ttl: 7200 });
    expect((await server.login('long')).json.auth.lease_duration).toBe(7200);
  });

  it('go with their data and the tokens they issued, children included; other mounts keep theirs', async () => {
    await server.putPolicy('creator', 'path "auth/token/create" { capabilities = ["update"] }');
    await server.putRole('maker', { token_policies: ['reader', 'creator'] }, 'aws-test');
    const token = (await server.login('maker', 'aws-test')).json.auth.client_token as string;
    const child = await server.send({ method: 'POST', path: '/v1/auth/token/create', token, body: { ttl: '10m' } });
    const childToken = child.json.auth.client_token as string;
    await server.putRole('web', { token_policies: ['reader'] });
    const elsewhere = (await server.login('web')).json.auth.client_token as string;
    expect((await send({ method: 'DELETE', path: '/v1/sys/auth/aws-test' })).status).toBe(204);
    expect((await auths()).data['aws-test/']).toBeUndefined();
    expect((await send({ path: '/v1/auth/aws-test/role/web' })).status).toBe(404);
    for (const gone of [token, childToken]) {
      expect(await server.lookup(gone)).toBeUndefined();
      const used = await server.send({ path: '/v1/secret/data/any', token: gone });
      expect(used.status).toBe(403);
    }
    expect((await server.lookup(elsewhere))?.path).toBe('auth/aws/login');
    expect((await send({ method: 'POST', path: '/v1/sys/auth/aws-test', body: { type: 'aws' } })).status).toBe(204);
    expect((await send({ path: '/v1/auth/aws-test/role/web' })).status).toBe(404);
    expect((await send({ method: 'DELETE', path: '/v1/sys/auth/aws-test' })).status).toBe(204);
    expect((await send({ method: 'DELETE', path: '/v1/sys/auth/aws-test' })).status).toBe(204);
  });

  it('refuse what Vault refuses, with its words', async () => {
    const enable = async (path: string, body: unknown) =>
      (await send({ method: 'POST', path: `/v1/sys/auth/${path}`, body })).json;
    expect(await enable('aws', { type: 'aws' })).toEqual({ errors: ['path is already in use at aws/'] });
    expect(await enable('aws/inner', { type: 'aws' })).toEqual({ errors: ['path is already in use at aws/'] });
    expect(await enable('token', { type: 'aws' })).toEqual({ errors: ['path is already in use at token/'] });
    expect(await enable('tokens', { type: 'token' })).toEqual({
      errors: ['token credential backend cannot be instantiated'],
    });
    expect(await enable('ldap', { type: 'ldap' })).toEqual({ errors: ['plugin not found in the catalog: ldap'] });
    expect(await enable('kv', { type: 'kv' })).toEqual({ errors: ['plugin not found in the catalog: kv'] });
  });

  it('show the token method on sys/auth/token, with the system TTLs on its tune', async () => {
    expect((await send({ path: '/v1/sys/auth/token' })).json.data).toMatchObject({ type: 'token' });
    expect((await send({ path: '/v1/sys/auth/token/tune' })).json.data).toMatchObject({
      default_lease_ttl: 2_764_800,
      max_lease_ttl: 2_764_800,
    });
  });
});
