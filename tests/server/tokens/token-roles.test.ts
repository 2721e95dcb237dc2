// Token roles over HTTP (auth/token/roles/<name> and auth/token/create/<name>), as hvac's test_token drives them and as
// Vault's token store rules them: what a role lets a token mint, what it refuses, and what the token carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/index.js';
import { request, startServer, type RawRequest, type Started } from '../harness.js';

let server: Started;
let root: string;
const send = (options: RawRequest) => request(server.url, options);
const post = (path: string, token: string, body: Record<string, unknown> = {}) =>
  send({ method: 'POST', path: `/v1/${path}`, token, body });
const putRole = async (name: string, body: Record<string, unknown>) => {
  const answer = await post(`auth/token/roles/${name}`, root, body);
  expect(answer.status, answer.text).toBe(204);
};
const putPolicy = async (name: string, policy: string) => {
  const answer = await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, token: root, body: { policy } });
  expect(answer.status).toBe(204);
};
const made = async (token: string, body: Record<string, unknown>, path = 'auth/token/create') => {
  const answer = await post(path, token, body);
  expect(answer.status, answer.text).toBe(200);
  return answer.json.auth.client_token as string;
};
const lookup = async (token: string) => (await post('auth/token/lookup', root, { token })).json.data;

beforeAll(async () => {
  server = await startServer({ tokenMaxTtl: 10 * 3600 });
  root = server.rootToken;
  await putPolicy('testpolicy', 'path "secret/data/test/*" { capabilities = ["read"] }');
  await putPolicy('ops-read', 'path "secret/data/ops/*" { capabilities = ["read"] }');
  await putPolicy('ops-write', 'path "secret/data/ops/*" { capabilities = ["update"] }');
  // A minter may use roles and nothing else: it holds none of the policies the roles hand out.
  await putPolicy(
    'minter',
    'path "auth/token/create/*" { capabilities = ["update"] }\npath "auth/token/create" { capabilities = ["update"] }',
  );
}, 60_000);

afterAll(() => server?.stop());

describe('auth/token/roles, as hvac drives it', () => {
  it('lists 404 with no role, then the role, then 404 again once it is deleted', async () => {
    expect((await send({ method: 'LIST', path: '/v1/auth/token/roles', token: root })).status).toBe(404);
    await putRole('testrole', { orphan: false, renewable: true });
    const listed = await send({ method: 'LIST', path: '/v1/auth/token/roles', token: root });
    expect(listed.json.data.keys).toEqual(['testrole']);
    const deleted = await send({ method: 'DELETE', path: '/v1/auth/token/roles/testrole', token: root });
    expect(deleted.status).toBe(204);
    expect((await send({ method: 'GET', path: '/v1/auth/token/roles?list=true', token: root })).status).toBe(404);
  });

  it("reads a role back in Vault's shape, legacy names included", async () => {
    await putRole('shaped', {
      allowed_policies: 'TestPolicy, default',
      disallowed_policies: ['ops-write'],
      token_period: '30m',
      explicit_max_ttl: 7200,
      token_bound_cidrs: '10.0.0.0/8',
      path_suffix: 'rev-1',
    });
    const read = await send({ path: '/v1/auth/token/roles/shaped', token: root });
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual({
      name: 'shaped',
      allowed_policies: ['default', 'testpolicy'],
      disallowed_policies: ['ops-write'],
      allowed_policies_glob: [],
      disallowed_policies_glob: [],
      allowed_entity_aliases: [],
      orphan: false,
      renewable: true,
      path_suffix: 'rev-1',
      period: 0,
      token_period: 1800,
      explicit_max_ttl: 7200,
      token_explicit_max_ttl: 7200,
      token_bound_cidrs: ['10.0.0.0/8'],
      token_no_default_policy: false,
      token_type: 'default-service',
    });
    // An update changes only what it names.
    await putRole('shaped', { orphan: true });
    const updated = (await send({ path: '/v1/auth/token/roles/shaped', token: root })).json.data;
    expect(updated).toMatchObject({ orphan: true, token_period: 1800, allowed_policies: ['default', 'testpolicy'] });
    expect((await send({ path: '/v1/auth/token/roles/never', token: root })).status).toBe(404);
  });

  it('makes a token against a role with the role’s policies, and its role and path show in a lookup', async () => {
    await putRole('testrole', { allowed_policies: ['testpolicy'], path_suffix: 'rev-2' });
    const created = await post('auth/token/create/testrole', root, { ttl: '1h' });
    expect(created.status).toBe(200);
    expect(created.json.auth.policies).toEqual(['default', 'testpolicy']);
    const data = await lookup(created.json.auth.client_token);
    expect(data).toMatchObject({ role: 'testrole', path: 'auth/token/create/testrole/rev-2', orphan: false });
    // A token made without a role shows none.
    expect(await lookup(await made(root, { policies: ['testpolicy'] }))).not.toHaveProperty('role');
  });

  it('refuses batch tokens clearly, and bad names, suffixes and addresses with 400', async () => {
    for (const body of [{ token_type: 'batch' }, { token_type: 'default-batch' }]) {
      const answer = await post('auth/token/roles/batchy', root, body);
      expect(answer.status).toBe(400);
      expect(answer.json.errors[0]).toMatch(/not supported: this server makes service tokens only/);
    }
    expect((await post('auth/token/roles/batchy', root, { token_type: 'weird' })).status).toBe(400);
    expect((await post('auth/token/roles/sfx', root, { path_suffix: 'a/../b' })).status).toBe(400);
    expect((await post('auth/token/roles/cidr', root, { token_bound_cidrs: 'nowhere' })).status).toBe(400);
    expect((await send({ path: '/v1/auth/token/roles/batchy', token: root })).status).toBe(404);
    expect((await post('auth/token/create/no-such-role', root)).json.errors).toEqual(['unknown role no-such-role']);
  });
});

describe('what a role lets a token mint', () => {
  it('lets a token mint allowed policies it does not hold, and nothing else', async () => {
    await putRole('ops', { allowed_policies: ['ops-read'], allowed_policies_glob: ['ops-*'] });
    const minter = await made(root, { policies: ['minter'] });
    const byRole = await post('auth/token/create/ops', minter, { policies: ['ops-write'] });
    expect(byRole.status, byRole.text).toBe(200);
    expect(byRole.json.auth.policies).toEqual(['default', 'ops-write']);
    const outside = await post('auth/token/create/ops', minter, { policies: ['testpolicy'] });
    expect(outside.status).toBe(400);
    expect(outside.json.errors[0]).toMatch(/must be subset of the role's allowed policies/);
    // Without the role the same token may mint only what it holds.
    expect((await post('auth/token/create', minter, { policies: ['ops-write'] })).json.errors).toEqual([
      'child policies must be subset of parent',
    ]);
    // A role listing root still never lets a token that is not root make one.
    await putRole('rooty', { allowed_policies: ['root'] });
    expect((await post('auth/token/create/rooty', minter)).json.errors).toEqual([
      'root tokens may not be created without parent token being root',
    ]);
  });

  it('refuses disallowed policies, by name and by glob, and keeps default out when it is disallowed', async () => {
    await putRole('no-write', { disallowed_policies_glob: ['*-write'], disallowed_policies: ['testpolicy'] });
    for (const policies of [['ops-write'], ['testpolicy']]) {
      const answer = await post('auth/token/create/no-write', root, { policies });
      expect(answer.status).toBe(400);
      expect(answer.json.errors[0]).toMatch(/is disallowed by this role/);
    }
    await putRole('no-default', { allowed_policies: ['ops-read'], disallowed_policies: ['default'] });
    expect((await post('auth/token/create/no-default', root)).json.auth.policies).toEqual(['ops-read']);
  });

  it('makes orphans, caps uses and lifetimes, binds addresses and renews by the role', async () => {
    await putRole('shaper', {
      allowed_policies: ['ops-read'],
      orphan: true,
      renewable: false,
      token_num_uses: 3,
      token_explicit_max_ttl: '2h',
      token_bound_cidrs: ['127.0.0.1/32'],
    });
    const minter = await made(root, { policies: ['minter'] });
    const created = await post('auth/token/create/shaper', minter, { num_uses: 10, explicit_max_ttl: '3h', ttl: '5h' });
    expect(created.status).toBe(200);
    expect(created.json.warnings).toContain(
      'Explicit max TTL specified both during creation call and in role; using the lesser value of 7200 seconds',
    );
    expect(created.json.auth).toMatchObject({ orphan: true, renewable: false, num_uses: 3, lease_duration: 7200 });
    const token = created.json.auth.client_token;
    expect(await lookup(token)).toMatchObject({ bound_cidrs: ['127.0.0.1/32'], explicit_max_ttl: 7200 });

    await putRole('periodic', { allowed_policies: ['ops-read'], token_period: '30m' });
    const periodic = await post('auth/token/create/periodic', minter);
    expect(periodic.json.auth.lease_duration).toBe(1800);
    const periodicToken = periodic.json.auth.client_token;
    // The role's period as it is now rules each renewal; a deleted role renews nothing.
    await putRole('periodic', { token_period: '10m' });
    const renewed = await post('auth/token/renew-self', periodicToken);
    expect(renewed.json.auth.lease_duration).toBe(600);
    await send({ method: 'DELETE', path: '/v1/auth/token/roles/periodic', token: root });
    expect((await post('auth/token/renew-self', periodicToken)).json.errors).toEqual([
      'original token role "periodic" could not be found, not renewing',
    ]);
  });

  it('needs the ACL on the role path, and no sudo: a token without it is refused', async () => {
    const minter = await made(root, { policies: ['minter'] });
    expect((await post('auth/token/roles/mine', minter, { allowed_policies: ['ops-write'] })).status).toBe(403);
    await putPolicy('role-admin', 'path "auth/token/roles/*" { capabilities = ["create", "update", "read"] }');
    const admin = await made(root, { policies: ['role-admin'] });
    expect((await post('auth/token/roles/mine', admin, { allowed_policies: ['ops-write'] })).status).toBe(204);
    expect((await post('auth/token/create/mine', admin)).status).toBe(403);
  });

  it('checks entity_alias as Vault does, then refuses it: there is no identity store', async () => {
    await putRole('aliased', { allowed_policies: ['ops-read'], allowed_entity_aliases: ['svc-*'] });
    expect((await post('auth/token/create', root, { entity_alias: 'svc-a' })).json.errors).toEqual([
      "'entity_alias' is only allowed in combination with token role",
    ]);
    expect((await post('auth/token/create/aliased', root, { entity_alias: 'other' })).json.errors).toEqual([
      "invalid 'entity_alias' value",
    ]);
    expect((await post('auth/token/create/aliased', root, { entity_alias: 'SVC-A' })).json.errors[0]).toMatch(
      /no identity store/,
    );
  });
});

describe('roles are durable and shared', () => {
  it('a role written by one server is used by another over the same storage', async () => {
    const storage = new MemoryStorage();
    const first = await startServer({ storage, rootToken: 'root-a' });
    const second = await startServer({ storage, rootToken: 'root-a' });
    try {
      const write = await request(first.url, {
        method: 'POST',
        path: '/v1/auth/token/roles/shared',
        token: 'root-a',
        body: { allowed_policies: 'ops-read' },
      });
      expect(write.status).toBe(204);
      const created = await request(second.url, {
        method: 'POST',
        path: '/v1/auth/token/create/shared',
        token: 'root-a',
        body: {},
      });
      expect(created.json.auth.policies).toEqual(['default', 'ops-read']);
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
