// Vault's token API over HTTP: create (with its policy, TTL, use and orphan rules), lookups, renewals, revocations
// with their cascade, and the token store's bound and sweep. node-vault drives the calls it has.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import vault from 'node-vault';
import { ManualClock } from '../../../src/lib/clocks.js';
import { calculateTtl } from '../../../src/server/tokens/token-ttl.js';
import { testStorage } from '../../support/test-storage.js';
import { request, startServer, type Started } from '../harness.js';
import { hvacHere } from '../../support/hvac.js';

const HOUR = 3600;
let started: Started;
let clock: ManualClock;
let root: string;
const send = (options: Parameters<typeof request>[1]) => request(started.url, options);

async function create(token: string, body: Record<string, unknown>) {
  return send({ method: 'POST', path: '/v1/auth/token/create', token, body });
}

beforeAll(async () => {
  clock = new ManualClock('2026-03-01T00:00:00Z');
  started = await startServer({ clock, tokenMaxTtl: 10 * HOUR, maxTokens: 50 });
  root = started.rootToken;
  await send({
    method: 'PUT',
    path: '/v1/sys/policies/acl/app',
    token: root,
    body: {
      policy:
        'path "secret/data/app/*" { capabilities = ["read", "create", "update"] }\npath "auth/token/create" { capabilities = ["update"] }',
    },
  });
  await send({
    method: 'PUT',
    path: '/v1/sys/policies/acl/other',
    token: root,
    body: { policy: 'path "secret/data/other/*" { capabilities = ["read"] }' },
  });
  await send({ method: 'POST', path: '/v1/secret/data/app/db', token: root, body: { data: { password: 'p' } } });
});

afterAll(() => started?.stop());

describe('auth/token/create', () => {
  it('creates a token with the asked policies plus default, a TTL, and Vault auth fields', async () => {
    const client = vault({ endpoint: started.url, token: root });
    const created = await client.tokenCreate({
      policies: ['App'],
      ttl: '1h',
      meta: { team: 'web' },
      display_name: 'ci',
    });
    expect(created.auth).toMatchObject({
      policies: ['app', 'default'],
      token_policies: ['app', 'default'],
      metadata: { team: 'web' },
      lease_duration: HOUR,
      renewable: true,
      token_type: 'service',
      orphan: false,
      num_uses: 0,
    });
    expect(created.auth.client_token).toMatch(/^sr\./);
    const self = await vault({ endpoint: started.url, token: created.auth.client_token }).tokenLookupSelf();
    expect(self.data).toMatchObject({
      display_name: 'token-ci',
      path: 'auth/token/create',
      ttl: HOUR,
      meta: { team: 'web' },
      orphan: false,
    });
  });

  it('keeps a child within its parent: a subset of its policies, no orphans and no periods unless root', async () => {
    const parent = (await create(root, { policies: ['app'] })).json.auth.client_token;
    const child = await create(parent, { policies: ['app'], ttl: 60 });
    expect(child.status).toBe(200);
    expect(child.json.auth.policies).toEqual(['app', 'default']);
    expect((await create(parent, {})).json.auth.policies).toEqual(['app', 'default']);
    for (const [body, message] of [
      [{ policies: ['other'] }, 'child policies must be subset of parent'],
      [{ policies: ['root'] }, 'child policies must be subset of parent'],
      [{ no_parent: true }, 'root or sudo privileges required to create orphan token'],
      [{ period: '1h' }, 'root or sudo privileges required to create periodic token'],
    ] as const) {
      const refused = await create(parent, body);
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({ errors: [message] });
    }
  });

  it('refuses bad fields with a 400 that names them', async () => {
    for (const body of [{ ttl: 'soon' }, { num_uses: -1 }, { policies: [{}] }, { meta: 'x' }, { renewable: 'maybe' }]) {
      const refused = await create(root, body);
      expect(refused.status).toBe(400);
      expect(refused.json.errors[0]).toMatch(/field "(ttl|num_uses|policies|meta|renewable)"/);
    }
    expect((await send({ method: 'POST', path: '/v1/auth/token/create', token: root, rawBody: '[1]' })).status).toBe(
      400,
    );
  });

  it('caps a TTL above the maximum, and explicit_max_ttl bounds renewals', async () => {
    const capped = await create(root, { policies: ['app'], ttl: '20h' });
    expect(capped.json.auth.lease_duration).toBe(10 * HOUR);
    expect(capped.json.warnings[0]).toContain('exceeded the effective max_ttl');
    const bounded = (await create(root, { policies: ['app'], ttl: 600, explicit_max_ttl: 900 })).json.auth.client_token;
    clock.advance(500);
    const renewed = await send({
      method: 'POST',
      path: '/v1/auth/token/renew-self',
      token: bounded,
      body: { increment: 600 },
    });
    expect(renewed.json.auth.lease_duration).toBe(400);
    clock.advance(400);
    expect((await send({ path: '/v1/auth/token/lookup-self', token: bounded })).status).toBe(403);
  });

  it('counts uses: num_uses 2 allows two requests, then the token is gone', async () => {
    const token = (await create(root, { policies: ['app'], num_uses: 2 })).json.auth.client_token;
    expect((await send({ path: '/v1/secret/data/app/db', token })).status).toBe(200);
    expect((await send({ path: '/v1/secret/data/app/db', token })).status).toBe(200);
    expect((await send({ path: '/v1/secret/data/app/db', token })).status).toBe(403);
    expect((await send({ method: 'POST', path: '/v1/auth/token/lookup', token: root, body: { token } })).status).toBe(
      403,
    );
  });

  it('makes a periodic token that renews by its period', async () => {
    const token = (await create(root, { policies: ['app'], period: 600 })).json.auth.client_token;
    for (let i = 0; i < 5; i++) {
      clock.advance(500);
      expect(
        (await send({ method: 'POST', path: '/v1/auth/token/renew-self', token, body: {} })).json.auth.lease_duration,
      ).toBe(600);
    }
    expect((await send({ path: '/v1/auth/token/lookup-self', token })).json.data.period).toBe(600);
  });
});

describe('auth/token/create as older clients send it', () => {
  it('takes a null field as not given, as Vault does', async () => {
    const made = await create(root, {
      policies: ['app'],
      meta: null,
      display_name: null,
      num_uses: null,
      renewable: null,
      ttl: null,
      id: null,
    });
    expect(made.status).toBe(200);
    expect(made.json.auth).toMatchObject({ policies: ['app', 'default'], renewable: true, num_uses: 0 });
    const looked = await send({
      method: 'POST',
      path: '/v1/auth/token/lookup',
      token: root,
      body: { token: made.json.auth.client_token },
    });
    expect(looked.json.data).toMatchObject({ display_name: 'token', meta: null });
  });

  it('takes `lease` as the TTL, and refuses an `id` it would not honour', async () => {
    const leased = await create(root, { policies: ['app'], lease: '1h' });
    expect(leased.json.auth.lease_duration).toBe(HOUR);
    const chosen = await create(root, { id: 'sr.chosen-by-caller' });
    expect(chosen.status).toBe(400);
    expect(chosen.json.errors[0]).toMatch(/"id"/);
    expect((await send({ path: '/v1/auth/token/lookup-self', token: 'sr.chosen-by-caller' })).status).toBe(403);
  });

  it("warns, as Vault does, about fields it ignored: a misspelt `policies` would silently give the caller's own", async () => {
    const made = await create(root, { polices: ['app'], ttl: '1h', bogus: null });
    expect(made.status).toBe(200);
    expect(made.json.auth.policies).toEqual(['root']);
    expect(made.json.warnings).toEqual(['Endpoint ignored these unrecognized parameters: [bogus polices]']);
    expect((await create(root, { policies: ['app'] })).json.warnings).toBeNull();
  });

  it.skipIf(!hvacHere)("works with hvac's create_token, which sends every field, null when unset", async () => {
    const script = [
      'import sys, warnings, hvac',
      'warnings.simplefilter("ignore")',
      'c = hvac.Client(url=sys.argv[1], token=sys.argv[2])',
      'auth = c.create_token(policies=["app"], lease="2h")["auth"]',
      'print(auth["lease_duration"], ",".join(auth["policies"]))',
    ].join('\n');
    const { stdout } = await promisify(execFile)('/usr/bin/python3', ['-c', script, started.url, root]);
    expect(stdout.trim()).toBe(`${2 * HOUR} app,default`);
  });
});

describe('lookups, renewals and revocations', () => {
  it('looks a token up by itself, by value and by accessor', async () => {
    const created = (await create(root, { policies: ['app'], ttl: HOUR })).json.auth;
    const byValue = await send({
      method: 'POST',
      path: '/v1/auth/token/lookup',
      token: root,
      body: { token: created.client_token },
    });
    expect(byValue.json.data).toMatchObject({
      id: created.client_token,
      accessor: created.accessor,
      policies: ['app', 'default'],
    });
    const byAccessor = await send({
      method: 'POST',
      path: '/v1/auth/token/lookup-accessor',
      token: root,
      body: { accessor: created.accessor },
    });
    expect(byAccessor.json.data).toMatchObject({ id: '', accessor: created.accessor, ttl: HOUR });
    expect(
      (await send({ method: 'POST', path: '/v1/auth/token/lookup-accessor', token: root, body: { accessor: 'nope' } }))
        .json,
    ).toEqual({ errors: ['invalid accessor'] });
    expect(
      (await send({ method: 'POST', path: '/v1/auth/token/lookup', token: root, body: { token: 'sr.nope' } })).status,
    ).toBe(403);
  });

  it('renews another token, and refuses a non-renewable one', async () => {
    const token = (await create(root, { policies: ['app'], ttl: 600 })).json.auth.client_token;
    clock.advance(100);
    const renewed = await send({
      method: 'POST',
      path: '/v1/auth/token/renew',
      token: root,
      body: { token, increment: '20m' },
    });
    expect(renewed.json.auth.lease_duration).toBe(1200);
    const fixed = (await create(root, { policies: ['app'], renewable: false })).json.auth.client_token;
    const refused = await send({ method: 'POST', path: '/v1/auth/token/renew-self', token: fixed, body: {} });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ errors: ['lease is not renewable'] });
  });

  it('revoking a parent revokes its children and grandchildren, but not orphans', async () => {
    const parent = (await create(root, { policies: ['app'] })).json.auth.client_token;
    const child = (await create(parent, {})).json.auth.client_token;
    const grandchild = (await create(child, {})).json.auth.client_token;
    const orphan = (await create(root, { policies: ['app'], no_parent: true })).json.auth;
    expect(orphan.orphan).toBe(true);
    expect(
      (await send({ method: 'POST', path: '/v1/auth/token/revoke', token: root, body: { token: parent } })).status,
    ).toBe(204);
    for (const token of [parent, child, grandchild])
      expect((await send({ path: '/v1/auth/token/lookup-self', token })).status).toBe(403);
    expect((await send({ path: '/v1/auth/token/lookup-self', token: orphan.client_token })).status).toBe(200);
    expect(
      (
        await send({
          method: 'POST',
          path: '/v1/auth/token/revoke-accessor',
          token: root,
          body: { accessor: orphan.accessor },
        })
      ).status,
    ).toBe(204);
    expect((await send({ path: '/v1/auth/token/lookup-self', token: orphan.client_token })).status).toBe(403);
  });

  it('a child dies with its expired parent', async () => {
    const parent = (await create(root, { policies: ['app'], ttl: 60 })).json.auth.client_token;
    const child = (await create(parent, { ttl: 600 })).json.auth.client_token;
    clock.advance(61);
    expect((await send({ path: '/v1/auth/token/lookup-self', token: child })).status).toBe(403);
  });

  it('revoke-self ends the caller; a token without capability cannot use the token API on others', async () => {
    const token = (await create(root, { policies: ['other'] })).json.auth.client_token;
    expect((await send({ method: 'POST', path: '/v1/auth/token/create', token, body: {} })).status).toBe(403);
    expect((await send({ method: 'POST', path: '/v1/auth/token/lookup', token, body: { token: root } })).status).toBe(
      403,
    );
    expect((await send({ method: 'POST', path: '/v1/auth/token/revoke-self', token })).status).toBe(204);
    expect((await send({ path: '/v1/auth/token/lookup-self', token })).status).toBe(403);
  });
});

describe('a bounded token store', () => {
  it("refuses new tokens but root's with 429 past maxTokens, and the sweep makes room by revoking expired ones", async () => {
    const small = await startServer({ clock, maxTokens: 3, storage: testStorage() });
    const mk = (token: string, ttl: number) =>
      request(small.url, { method: 'POST', path: '/v1/auth/token/create', token, body: { ttl } });
    await request(small.url, {
      method: 'PUT',
      path: '/v1/sys/policies/acl/minter',
      token: small.rootToken,
      body: { policy: 'path "auth/token/create" { capabilities = ["update"] }' },
    });
    const minter = (
      await request(small.url, {
        method: 'POST',
        path: '/v1/auth/token/create',
        token: small.rootToken,
        body: { policies: ['minter'], ttl: 600 },
      })
    ).json.auth.client_token;
    expect((await mk(minter, 60)).status).toBe(200);
    const refused = await mk(minter, 60);
    expect(refused.status).toBe(429);
    expect(refused.json.errors[0]).toContain('at most 3 live tokens');
    clock.advance(61);
    await small.app.runPeriodic();
    expect((await mk(minter, 60)).status).toBe(200);
    await small.stop();
  });

  it('also removes a used-up token whose revocation a crash cut short', async () => {
    const storage = testStorage();
    const server = await startServer({ storage, maxTokens: 3 });
    try {
      const made = await request(server.url, {
        method: 'POST',
        path: '/v1/auth/token/create',
        token: server.rootToken,
        body: { num_uses: 5 },
      });
      // What the last use leaves behind when the process dies before its revocation: the entry marked used up.
      const entries = await Promise.all(
        (await storage.list('sys/token/id/')).map(
          async (key) =>
            [key, JSON.parse(Buffer.from((await storage.get(`sys/token/id/${key}`))!).toString())] as const,
        ),
      );
      const [key, entry] = entries.find(([, value]) => value.numUses === 5)!;
      await storage.put(`sys/token/id/${key}`, Buffer.from(JSON.stringify({ ...entry, numUses: 0, usedUp: true })));
      expect(
        (await request(server.url, { path: '/v1/auth/token/lookup-self', token: made.json.auth.client_token })).status,
      ).toBe(403);
      await server.app.runPeriodic();
      expect(await storage.get(`sys/token/id/${key}`)).toBeUndefined();
    } finally {
      await server.stop();
    }
  });
});

describe('calculateTtl', () => {
  const context = { issuedAt: 0, now: 0, defaultTtl: 100, systemMaxTtl: 1000 };
  it('caps a period above the maximum with a warning', () => {
    expect(calculateTtl({ increment: 0, ttl: 0, period: 5000, maxTtl: 0, explicitMaxTtl: 0 }, context)).toEqual({
      ttl: 1000,
      warnings: ['period of 1h23m20s exceeded the effective max_ttl of 16m40s; period value is capped accordingly'],
    });
  });

  it('takes the increment over the TTL over the default', () => {
    expect(calculateTtl({ increment: 7, ttl: 9, period: 0, maxTtl: 0, explicitMaxTtl: 0 }, context).ttl).toBe(7);
    expect(calculateTtl({ increment: 0, ttl: 9, period: 0, maxTtl: 0, explicitMaxTtl: 0 }, context).ttl).toBe(9);
    expect(calculateTtl({ increment: 0, ttl: 0, period: 0, maxTtl: 0, explicitMaxTtl: 0 }, context).ttl).toBe(100);
  });
});
