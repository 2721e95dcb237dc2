// Vault's rules for auth/token/create and create-orphan, over HTTP: what a child may hold given its parent (uses,
// policies, `default`, bound CIDRs, lifetime), and what `sudo` on the path allows beyond that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTokenServer, type TokenServer } from './token-harness.js';

let server: TokenServer;
let root: string;

const MINTER =
  'path "auth/token/create" { capabilities = ["update"] }\npath "auth/token/create-orphan" { capabilities = ["update"] }';
const SUDOER = 'path "auth/token/create" { capabilities = ["update", "sudo"] }';

beforeAll(async () => {
  server = await startTokenServer({ tokenMaxTtl: 10 * 3600 });
  root = server.root;
  await server.putPolicy('minter', MINTER);
  await server.putPolicy('sudoer', SUDOER);
  await server.putPolicy('app', 'path "secret/data/app/*" { capabilities = ["read", "create", "update"] }');
  await server.putPolicy('other', 'path "secret/data/other/*" { capabilities = ["read"] }');
  await server.send({ method: 'POST', path: '/v1/secret/data/app/db', token: root, body: { data: { password: 'p' } } });
}, 60_000);

afterAll(() => server?.stop());

const refusal = async (token: string, body: Record<string, unknown>, path?: string) => {
  const answer = await server.create(token, body, path);
  return { status: answer.status, errors: answer.json?.errors };
};

describe('a use-limited token', () => {
  it('creates no child and no orphan: its use limit would not bind them', async () => {
    const limited = await server.made({ policies: ['minter', 'app'], num_uses: 5 });
    for (const [body, path] of [
      [{}, undefined],
      [{ num_uses: 1 }, undefined],
      [{}, 'auth/token/create-orphan'],
    ] as const) {
      expect(await refusal(limited, body, path)).toEqual({
        status: 400,
        errors: ['restricted use token cannot generate child tokens'],
      });
    }
    // Each refused request still counted one use, as in Vault: two are left.
    expect((await server.lookup(limited))!.num_uses).toBe(2);
  });

  it('creates nothing on its last use either', async () => {
    const last = await server.made({ policies: ['minter', 'app'], num_uses: 1 });
    expect(await refusal(last, {})).toEqual({
      status: 400,
      errors: ['restricted use token cannot generate child tokens'],
    });
    expect(await server.lookup(last)).toBeUndefined();
  });

  it('may be created by an unlimited one, which stays unlimited', async () => {
    const parent = await server.made({ policies: ['minter', 'app'] });
    const child = await server.create(parent, { policies: ['app'], num_uses: 3 });
    expect(child.status).toBe(200);
    expect(child.json.auth.num_uses).toBe(3);
  });
});

describe('policies and default', () => {
  it('inherits the parent policies when none are asked, and default only when the parent holds it', async () => {
    const bare = await server.made({ policies: ['minter', 'app'], no_default_policy: true });
    expect((await server.lookup(bare))!.policies).toEqual(['app', 'minter']);
    const inherited = await server.create(bare, {});
    expect(inherited.json.auth.policies).toEqual(['app', 'minter']);
    const asked = await server.create(bare, { policies: ['app'] });
    expect(asked.json.auth.policies).toEqual(['app']);
    // default grants lookup-self; a child of a parent without it must not gain it.
    expect(
      (await server.send({ path: '/v1/auth/token/lookup-self', token: asked.json.auth.client_token })).status,
    ).toBe(403);
    expect(await refusal(bare, { policies: ['app', 'default'] })).toEqual({
      status: 400,
      errors: ['child policies must be subset of parent'],
    });
  });

  it('adds default to a child of a parent that holds it, unless no_default_policy', async () => {
    const parent = await server.made({ policies: ['minter', 'app'] });
    expect((await server.create(parent, { policies: ['app'] })).json.auth.policies).toEqual(['app', 'default']);
    expect((await server.create(parent, { policies: ['App ', 'default'] })).json.auth.policies).toEqual([
      'app',
      'default',
    ]);
    expect((await server.create(parent, { policies: ['app'], no_default_policy: true })).json.auth.policies).toEqual([
      'app',
    ]);
    expect((await server.create(parent, { no_default_policy: true })).json.auth.policies).toEqual(['app', 'minter']);
  });

  it('takes an empty list as none asked, and lets root stand alone', async () => {
    const parent = await server.made({ policies: ['minter', 'app'], no_default_policy: true });
    expect((await server.create(parent, { policies: [] })).json.auth.policies).toEqual(['app', 'minter']);
    expect((await server.create(root, { policies: ['app', 'Root'] })).json.auth.policies).toEqual(['root']);
    expect((await server.create(root, {})).json.auth.policies).toEqual(['root']);
  });

  it('refuses any policy the parent lacks, among ones it holds', async () => {
    const parent = await server.made({ policies: ['minter', 'app'] });
    for (const policies of [['app', 'other'], ['other', 'app'], ['other'], ['root'], ['app', 'root']]) {
      expect(await refusal(parent, { policies })).toEqual({
        status: 400,
        errors: ['child policies must be subset of parent'],
      });
    }
  });
});

describe('sudo on the path', () => {
  it('lets a token create orphans, periodic tokens and tokens with policies it lacks, as root can', async () => {
    const sudoer = await server.made({ policies: ['sudoer', 'app'] });
    const orphan = await server.create(sudoer, { policies: ['app'], no_parent: true });
    expect(orphan.json.auth).toMatchObject({ orphan: true, policies: ['app', 'default'] });
    const periodic = await server.create(sudoer, { policies: ['app'], period: '10m' });
    expect(periodic.json.auth.lease_duration).toBe(600);
    expect((await server.lookup(periodic.json.auth.client_token))!.period).toBe(600);
    expect((await server.create(sudoer, { policies: ['other'] })).json.auth.policies).toEqual(['default', 'other']);
    expect((await server.create(sudoer, { policies: ['other'], no_default_policy: true })).json.auth.policies).toEqual([
      'other',
    ]);
  });

  it('does not let a token that is not root create a root token', async () => {
    const sudoer = await server.made({ policies: ['sudoer'] });
    expect(await refusal(sudoer, { policies: ['root'] })).toEqual({
      status: 400,
      errors: ['root tokens may not be created without parent token being root'],
    });
    expect(await refusal(sudoer, { policies: ['other', 'root'] })).toEqual({
      status: 400,
      errors: ['root tokens may not be created without parent token being root'],
    });
  });

  it('on create does not carry over to create-orphan, which has its own ACL', async () => {
    const sudoer = await server.made({ policies: ['sudoer'] });
    expect((await server.create(sudoer, {}, 'auth/token/create-orphan')).status).toBe(403);
  });
});

describe('auth/token/create-orphan', () => {
  it('makes an orphan for a token allowed the path, within its policies, that outlives it', async () => {
    const minter = await server.made({ policies: ['minter', 'app'] });
    const orphan = await server.create(minter, { policies: ['app'] }, 'auth/token/create-orphan');
    expect(orphan.json.auth).toMatchObject({ orphan: true, policies: ['app', 'default'] });
    expect((await server.lookup(orphan.json.auth.client_token))!.path).toBe('auth/token/create-orphan');
    expect(await refusal(minter, { policies: ['other'] }, 'auth/token/create-orphan')).toEqual({
      status: 400,
      errors: ['child policies must be subset of parent'],
    });
    expect(await refusal(minter, { period: 60 }, 'auth/token/create-orphan')).toEqual({
      status: 400,
      errors: ['root or sudo privileges required to create periodic token'],
    });
    await server.send({ method: 'POST', path: '/v1/auth/token/revoke', token: root, body: { token: minter } });
    expect(await server.lookup(orphan.json.auth.client_token)).toBeDefined();
  });
});

describe('lifetimes', () => {
  it('gives a root token with explicit_max_ttl or a period a lifetime, and one without a TTL none', async () => {
    const bounded = await server.create(root, { policies: ['root'], explicit_max_ttl: 600 });
    expect(bounded.json.auth.lease_duration).toBe(600);
    const periodic = await server.create(root, { policies: ['root'], period: 300 });
    expect(periodic.json.auth.lease_duration).toBe(300);
    const forever = await server.create(root, { policies: ['root'] });
    expect(forever.json.auth).toMatchObject({ lease_duration: 0, renewable: false });
    expect(forever.json.warnings).toBeNull();
    expect((await server.lookup(forever.json.auth.client_token))!).toMatchObject({
      expire_time: null,
      creation_ttl: 0,
    });
    expect((await server.lookup(bounded.json.auth.client_token))!.creation_ttl).toBe(600);
    server.clock.advance(301);
    expect(await server.lookup(periodic.json.auth.client_token)).toBeUndefined();
    expect(await server.lookup(bounded.json.auth.client_token)).toBeDefined();
    server.clock.advance(300);
    expect(await server.lookup(bounded.json.auth.client_token)).toBeUndefined();
    expect(await server.lookup(forever.json.auth.client_token)).toBeDefined();
  });

  it('refuses a non-expiring root token to an expiring root parent', async () => {
    const expiring = (await server.create(root, { policies: ['root'], ttl: '1h' })).json.auth.client_token;
    expect(await refusal(expiring, { policies: ['root'] })).toEqual({
      status: 400,
      errors: ['expiring root tokens cannot create non-expiring root tokens'],
    });
    expect((await server.create(expiring, { policies: ['root'], ttl: 60 })).json.auth.lease_duration).toBe(60);
  });

  it("caps a child's TTL at its parent's expiry, with a warning; an orphan is not capped", async () => {
    const parent = (await server.create(root, { policies: ['minter', 'app'], ttl: 120 })).json.auth.client_token;
    const child = await server.create(parent, { ttl: 600 });
    expect(child.json.auth.lease_duration).toBe(120);
    expect(child.json.warnings).toEqual([
      "TTL of 10m0s runs past the parent token's expiry: capped at 2m0s, when the parent expires",
    ]);
    expect((await server.lookup(child.json.auth.client_token))!.expire_time).toBe(
      (await server.lookup(parent))!.expire_time,
    );
    const orphan = await server.create(parent, { ttl: 600 }, 'auth/token/create-orphan');
    expect(orphan.json.auth.lease_duration).toBe(600);
    expect((await server.create(parent, { ttl: 60 })).json.warnings).toBeNull();
  });

  it('sanitises the display name as Vault does, and takes up to 256 characters of it', async () => {
    const made = await server.made({ policies: ['app'], display_name: 'ci job/7!' });
    expect((await server.lookup(made))!.display_name).toBe('token-ci-job-7');
    expect((await server.create(root, { display_name: 'n'.repeat(256) })).status).toBe(200);
    expect((await server.create(root, { display_name: 'n'.repeat(257) })).status).toBe(400);
  });
});
