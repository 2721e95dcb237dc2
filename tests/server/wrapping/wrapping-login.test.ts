// A wrapped login: the grant's token goes into the wrapper, never into the login's answer, and whoever unwraps it
// gets a token that works; the wrap_info names its accessor.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTokenServer, type TokenServer } from '../tokens/token-harness.js';

let server: TokenServer;

beforeAll(async () => {
  server = await startTokenServer();
  await server.putPolicy('app', 'path "secret/data/app/*" { capabilities = ["read"] }');
  await server.putRole('web', { token_policies: ['app'] });
}, 60_000);

afterAll(() => server?.stop());

it('wraps the login grant: no token in the answer, one working token from the unwrap', async () => {
  const login = await server.login('web', 'aws', { 'X-Vault-Wrap-TTL': '2m' });
  expect(login.status).toBe(200);
  expect(login.json.auth).toBeNull();
  expect(login.json.wrap_info).toMatchObject({ ttl: 120, creation_path: 'auth/aws/login' });
  const unwrapped = await server.send({
    method: 'POST',
    path: '/v1/sys/wrapping/unwrap',
    token: login.json.wrap_info.token,
  });
  expect(unwrapped.status).toBe(200);
  const { client_token: token, accessor, policies } = unwrapped.json.auth;
  expect(policies).toEqual(['app', 'default']);
  expect(login.json.wrap_info.wrapped_accessor).toBe(accessor);
  expect(login.text).not.toContain(token);
  expect((await server.send({ method: 'GET', path: '/v1/auth/token/lookup-self', token })).status).toBe(200);
});

it('answers a failed login as it is, unwrapped', async () => {
  const plain = await server.login('no-such-role');
  expect(plain.status).toBeGreaterThanOrEqual(400);
  const login = await server.login('no-such-role', 'aws', { 'X-Vault-Wrap-TTL': '2m' });
  expect([login.status, login.json]).toEqual([plain.status, plain.json]);
});
