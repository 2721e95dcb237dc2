// No single principal can fill the token store for everyone: the tokens made below one token root created, and the
// tokens of one login role, each have their own bound, and root is never refused. Over HTTP, with two servers over
// one storage standing in for two processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStorage } from '../../support/test-storage.js';
import { request, startServer } from '../harness.js';
import { startTokenServer, type TokenServer } from './token-harness.js';

const PER_PARENT = 3;
const PER_ROLE = 2;
let server: TokenServer;
let root: string;

beforeAll(async () => {
  server = await startTokenServer({ maxTokens: 100, maxTokensPerParent: PER_PARENT, maxTokensPerRole: PER_ROLE });
  root = server.root;
  await server.putPolicy('minter', 'path "auth/token/create*" { capabilities = ["update"] }');
  await server.putRole('web', { token_policies: ['minter'], token_ttl: 60 });
  await server.putRole('batch', { token_policies: ['minter'], token_ttl: 60 });
}, 60_000);

afterAll(() => server?.stop());

const revoke = (token: string) =>
  server.send({ method: 'POST', path: '/v1/auth/token/revoke', token: root, body: { token } });
const statuses = async (calls: Array<() => Promise<{ status: number }>>) => {
  const answers: number[] = [];
  for (const call of calls) answers.push((await call()).status);
  return answers;
};

describe('the tokens made below one root-made token', () => {
  it(`number at most maxTokensPerParent (${PER_PARENT}); root, other tokens and logins go on`, async () => {
    const minter = await server.made({ policies: ['minter'], ttl: 60 });
    expect(await statuses(Array.from({ length: PER_PARENT }, () => () => server.create(minter, {})))).toEqual([
      200, 200, 200,
    ]);
    const refused = await server.create(minter, {});
    expect(refused.status).toBe(429);
    expect(refused.json.errors).toEqual([
      `token limit reached: the tokens made below one token root created may number at most ${PER_PARENT} (maxTokensPerParent)`,
    ]);
    expect((await server.create(root, { ttl: 60 })).status).toBe(200);
    const another = await server.made({ policies: ['minter'], ttl: 60 });
    expect((await server.create(another, {})).status).toBe(200);
    expect((await server.login('web')).status).toBe(200);
  });

  it('count children, grandchildren and orphans together', async () => {
    const minter = await server.made({ policies: ['minter'], ttl: 60 });
    const child = (await server.create(minter, {})).json.auth.client_token;
    expect((await server.create(child, {})).status).toBe(200);
    expect((await server.create(child, {}, 'auth/token/create-orphan')).status).toBe(200);
    expect((await server.create(minter, {}, 'auth/token/create-orphan')).status).toBe(429);
    expect((await server.create(child, {})).status).toBe(429);
  });

  it('are counted down exactly by revocations, of a whole subtree at once', async () => {
    const minter = await server.made({ policies: ['minter'], ttl: 60 });
    const child = (await server.create(minter, {})).json.auth.client_token;
    const grandchild = (await server.create(child, {})).json.auth.client_token;
    const single = (await server.create(minter, {})).json.auth.client_token;
    expect((await server.create(minter, {})).status).toBe(429);
    expect((await revoke(single)).status).toBe(204);
    expect(await statuses([() => server.create(minter, {}), () => server.create(minter, {})])).toEqual([200, 429]);
    // The child and its child: two places.
    expect((await revoke(child)).status).toBe(204);
    expect(await server.lookup(grandchild)).toBeUndefined();
    expect(
      await statuses([
        () => server.create(minter, {}),
        () => server.create(minter, {}),
        () => server.create(minter, {}),
      ]),
    ).toEqual([200, 200, 429]);
  });

  it('are counted down when expired tokens are swept', async () => {
    const minter = await server.made({ policies: ['minter'], ttl: 600 });
    for (let i = 0; i < PER_PARENT; i++) expect((await server.create(minter, { ttl: 10 })).status).toBe(200);
    expect((await server.create(minter, {})).status).toBe(429);
    server.clock.advance(11);
    await server.started.app.runPeriodic();
    expect((await server.create(minter, {})).status).toBe(200);
  });
});

describe('the tokens of one login role', () => {
  it(`number at most maxTokensPerRole (${PER_ROLE}), with their children; other roles and root go on`, async () => {
    await server.putRole('fleet', { token_policies: ['minter'], token_ttl: 60 });
    const first = await server.login('fleet');
    expect(first.status).toBe(200);
    expect((await server.create(first.json.auth.client_token, {})).status).toBe(200);
    const refused = await server.login('fleet');
    expect(refused.status).toBe(429);
    expect(refused.json.errors).toEqual([
      `token limit reached: the tokens of one login role may number at most ${PER_ROLE} (maxTokensPerRole)`,
    ]);
    expect((await server.create(first.json.auth.client_token, {})).status).toBe(429);
    expect((await server.login('batch')).status).toBe(200);
    expect((await server.create(root, { ttl: 60 })).status).toBe(200);
    expect((await revoke(first.json.auth.client_token)).status).toBe(204);
    expect((await server.login('fleet')).status).toBe(200);
  });
});

describe('the live-token bound of a process (maxTokens)', () => {
  it('refuses logins and tokens made by others once reached, but never root', async () => {
    const storage = testStorage();
    const small = await startServer({ storage, maxTokens: 3, maxTokensPerParent: 10 });
    const send = (token: string, body: object) =>
      request(small.url, { method: 'POST', path: '/v1/auth/token/create', token, body });
    try {
      await request(small.url, {
        method: 'PUT',
        path: '/v1/sys/policies/acl/minter',
        token: small.rootToken,
        body: { policy: 'path "auth/token/create" { capabilities = ["update"] }' },
      });
      const minter = (await send(small.rootToken, { policies: ['minter'] })).json.auth.client_token;
      expect((await send(minter, {})).status).toBe(200);
      // Three live tokens now: root's, the minter and its child.
      expect((await send(minter, {})).status).toBe(429);
      expect(await statuses(Array.from({ length: 3 }, () => () => send(small.rootToken, { ttl: 60 })))).toEqual([
        200, 200, 200,
      ]);
    } finally {
      await small.stop();
    }
  });
});

describe('two servers over one storage', () => {
  it('share one count per scope: what one creates, the other counts', async () => {
    const storage = testStorage();
    const first = await startServer({ storage, rootToken: 'sr.shared-root', maxTokensPerParent: 4 });
    const second = await startServer({ storage, rootToken: 'sr.shared-root', maxTokensPerParent: 4 });
    try {
      const on = (url: string, token: string, body: object) =>
        request(url, { method: 'POST', path: '/v1/auth/token/create', token, body });
      await request(first.url, {
        method: 'PUT',
        path: '/v1/sys/policies/acl/minter',
        token: 'sr.shared-root',
        body: { policy: 'path "auth/token/create" { capabilities = ["update"] }' },
      });
      const minter = (await on(first.url, 'sr.shared-root', { policies: ['minter'] })).json.auth.client_token;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => on(i % 2 ? first.url : second.url, minter, {})),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(6);
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
