// Response wrapping over HTTP, as hvac's test_wrapping and test_token drive it and as Vault answers: X-Vault-Wrap-TTL on
// any request, sys/wrapping/wrap|unwrap|lookup|rewrap, a wrapping token good for exactly one unwrap, and what must never
// be wrapped or shown.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clocks.js';
import type { Storage } from '../../../src/index.js';
import { testStorage } from '../../support/test-storage.js';
import { dataDir, request, startServer, type RawRequest, type Started } from '../harness.js';

const SECRET = 'wrapped-secret-value-7f3a';
let server: Started;
let root: string;
let clock: ManualClock;
let storage: Storage;
let auditFile: string;
const send = (options: RawRequest) => request(server.url, options);
const post = (path: string, token: string | undefined, body?: unknown, wrap?: string) =>
  send({ method: 'POST', path: `/v1/${path}`, token, body, headers: wrap ? { 'X-Vault-Wrap-TTL': wrap } : {} });
const unwrap = (wrapping: string, by: string = root) => post('sys/wrapping/unwrap', by, { token: wrapping });
const INVALID = { errors: ['wrapping token is not valid or does not exist'] };

beforeAll(async () => {
  clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
  // The run's storage kind (memory, encrypted, SQLite, PostgreSQL): a single unwrap must hold over each.
  storage = testStorage();
  auditFile = join(dataDir(), 'audit.log');
  server = await startServer({ clock, storage, auditFile, tokenMaxTtl: 10 * 3600 });
  root = server.rootToken;
  await post('secret/data/app/db', root, { data: { password: SECRET } });
}, 60_000);

afterAll(() => server?.stop());

describe('sys/wrapping/wrap, as hvac calls it', () => {
  it.each([
    [undefined, 60],
    [{ test: 'test' }, 60],
    [undefined, 120],
    [{ test: 'test' }, 120],
  ])('wraps %j for %i seconds, unwrapped once into the data given', async (payload, ttl) => {
    const wrapped = await post('sys/wrapping/wrap', root, payload ?? {}, String(ttl));
    expect(wrapped.status).toBe(200);
    expect(wrapped.json).toMatchObject({
      data: null,
      auth: null,
      wrap_info: { ttl, creation_path: 'sys/wrapping/wrap' },
    });
    expect(wrapped.json.wrap_info.creation_time).toBe('2030-01-01T00:00:00Z');
    const unwrapped = await unwrap(wrapped.json.wrap_info.token);
    expect(unwrapped.status).toBe(200);
    expect(unwrapped.json.data).toEqual(payload ?? {});
  });

  it('needs a wrap TTL, and refuses one that is not a duration or negative', async () => {
    expect((await post('sys/wrapping/wrap', root, { a: 1 })).json.errors).toEqual([
      'endpoint requires response wrapping to be used',
    ]);
    expect((await post('sys/wrapping/wrap', root, { a: 1 }, 'soon')).status).toBe(400);
    expect((await post('sys/wrapping/wrap', root, { a: 1 }, '-5')).json.errors).toEqual([
      'requested wrap ttl cannot be negative',
    ]);
    // "0" asks for no wrapping, as in Vault: an ordinary read is answered as it is.
    const plain = await send({ path: '/v1/secret/data/app/db', token: root, headers: { 'X-Vault-Wrap-TTL': '0' } });
    expect(plain.json.data.data.password).toBe(SECRET);
  });
});

describe('a wrapped answer', () => {
  it('of a KV read holds the secret for exactly one unwrap, by the wrapping token itself', async () => {
    const read = await send({ path: '/v1/secret/data/app/db', token: root, headers: { 'X-Vault-Wrap-TTL': '5m' } });
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(SECRET);
    expect(read.json).toMatchObject({ data: null, wrap_info: { ttl: 300, creation_path: 'secret/data/app/db' } });
    expect(read.json.wrap_info).not.toHaveProperty('wrapped_accessor');
    const wrapping = read.json.wrap_info.token;
    const first = await post('sys/wrapping/unwrap', wrapping);
    expect(first.status).toBe(200);
    expect(first.json.data.data).toEqual({ password: SECRET });
    expect(first.json.request_id).toBe(read.json.request_id);
    const again = await post('sys/wrapping/unwrap', wrapping);
    expect([again.status, again.json]).toEqual([400, INVALID]);
    expect((await unwrap(wrapping)).json).toEqual(INVALID);
  });

  it('of a token creation holds the token, hvac’s periodic and role cases', async () => {
    const created = await post('auth/token/create', root, { period: '30m' }, '15m');
    expect(created.json.auth).toBeNull();
    expect(created.json.wrap_info.ttl).toBe(900);
    const token = (await unwrap(created.json.wrap_info.token)).json.auth;
    expect(token.lease_duration).toBe(1800);
    expect(created.json.wrap_info.wrapped_accessor).toBe(token.accessor);
    const lookup = await post('auth/token/lookup', root, { token: token.client_token });
    expect(lookup.json.data.period).toBe(1800);

    await send({
      method: 'PUT',
      path: '/v1/sys/policies/acl/testpolicy',
      token: root,
      body: { policy: 'path "x" {capabilities=["read"]}' },
    });
    await post('auth/token/roles/testrole', root, { allowed_policies: ['testpolicy'] });
    const byRole = await post('auth/token/create/testrole', root, { ttl: '1h' }, '15m');
    expect(byRole.json.wrap_info.ttl).toBe(900);
    expect((await unwrap(byRole.json.wrap_info.token)).json.auth.policies).toEqual(['default', 'testpolicy']);
  });

  it('is looked up without a token of its own and shows nothing of the answer; the lookup spends nothing', async () => {
    const read = await send({ path: '/v1/secret/data/app/db', token: root, headers: { 'X-Vault-Wrap-TTL': '90' } });
    const wrapping = read.json.wrap_info.token;
    const lookup = await post('sys/wrapping/lookup', undefined, { token: wrapping });
    expect(lookup.status).toBe(200);
    expect(lookup.json.data).toEqual({
      creation_ttl: 90,
      creation_time: '2030-01-01T00:00:00Z',
      creation_path: 'secret/data/app/db',
    });
    expect(lookup.text).not.toContain(SECRET);
    expect((await unwrap(wrapping)).json.data.data.password).toBe(SECRET);
    expect((await post('sys/wrapping/lookup', undefined, { token: wrapping })).json).toEqual(INVALID);
    expect((await post('sys/wrapping/lookup', undefined, {})).status).toBe(400);
  });

  it('is rewrapped behind a new token with the same TTL and path, and the old token is spent', async () => {
    const read = await send({ path: '/v1/secret/data/app/db', token: root, headers: { 'X-Vault-Wrap-TTL': '10m' } });
    const old = read.json.wrap_info.token;
    await post('sys/policies/acl/rewrapper', root, {
      policy: 'path "sys/wrapping/rewrap" { capabilities = ["update"] }',
    });
    const rewrapper = (await post('auth/token/create', root, { policies: ['rewrapper'] })).json.auth.client_token;
    const rewrapped = await post('sys/wrapping/rewrap', rewrapper, { token: old });
    expect(rewrapped.status).toBe(200);
    expect(rewrapped.json.wrap_info).toMatchObject({ ttl: 600, creation_path: 'secret/data/app/db' });
    expect((await unwrap(old)).json).toEqual(INVALID);
    expect((await unwrap(rewrapped.json.wrap_info.token)).json.data.data.password).toBe(SECRET);
  });

  it('expires: the token answers Vault’s error and the sweep removes the stored answer', async () => {
    const read = await send({ path: '/v1/secret/data/app/db', token: root, headers: { 'X-Vault-Wrap-TTL': '30s' } });
    const stored = async () => (await storage.list('sys/wrapping/response/')).length;
    const before = await stored();
    expect(before).toBeGreaterThan(0);
    clock.advance(31);
    expect((await unwrap(read.json.wrap_info.token)).json).toEqual(INVALID);
    await server.app.runPeriodic();
    expect(await stored()).toBeLessThan(before);
    clock.advance(-31);
  });
});

describe('what is never wrapped, shown or spent', () => {
  it('errors and ACL refusals come back as they are', async () => {
    const missing = await send({ path: '/v1/secret/data/none', token: root, headers: { 'X-Vault-Wrap-TTL': '5m' } });
    expect([missing.status, missing.json]).toEqual([404, { errors: [] }]);
    const weak = (await post('auth/token/create', root, { policies: ['default'] })).json.auth.client_token;
    const denied = await send({ path: '/v1/secret/data/app/db', token: weak, headers: { 'X-Vault-Wrap-TTL': '5m' } });
    expect([denied.status, denied.json]).toEqual([403, { errors: ['permission denied'] }]);
  });

  it('a wrapping token authenticates nothing else, and presenting it elsewhere does not spend it', async () => {
    const wrapping = (await post('sys/wrapping/wrap', root, { k: SECRET }, '5m')).json.wrap_info.token;
    expect((await send({ path: '/v1/secret/data/app/db', token: wrapping })).status).toBe(403);
    expect((await post('auth/token/lookup-self', wrapping)).status).toBe(403);
    // A token without sys/wrapping/unwrap may not unwrap for another, and its try spends nothing.
    const bare = (await post('auth/token/create', root, { policies: ['testpolicy'], no_default_policy: true })).json
      .auth.client_token;
    expect((await unwrap(wrapping, bare)).status).toBe(403);
    // A token that is not a wrapping token unwraps nothing.
    expect((await unwrap(bare)).json).toEqual(INVALID);
    expect((await unwrap(wrapping)).json.data).toEqual({ k: SECRET });
  });

  it('nothing is wrapped for a caller without a token, and a path that takes none refuses before acting', async () => {
    const stored = async () => (await storage.list('sys/wrapping/response/')).length;
    const before = await stored();
    const health = await send({ path: '/v1/sys/health', headers: { 'X-Vault-Wrap-TTL': '5m' } });
    expect([health.status, health.json]).toEqual([
      400,
      { errors: ['response wrapping needs a token: "sys/health" takes none'] },
    ]);
    const wrapping = (await post('sys/wrapping/wrap', root, { k: SECRET }, '5m')).json.wrap_info.token;
    const rewrapped = await post('sys/wrapping/unwrap', wrapping, undefined, '1m');
    expect(rewrapped.status).toBe(400);
    expect(await stored()).toBe(before + 1);
    expect((await unwrap(wrapping)).json.data).toEqual({ k: SECRET });
  });

  it('no token may be made holding the wrapping tokens’ policy', async () => {
    expect((await post('auth/token/create', root, { policies: ['response-wrapping'] })).json.errors).toEqual([
      'cannot assign policy "response-wrapping"',
    ]);
  });

  it('two servers over one storage: the answer wrapped on one is unwrapped once, on either', async () => {
    const other = await startServer({ clock, storage, rootToken: root });
    try {
      const wrapping = (await post('sys/wrapping/wrap', root, { k: 'shared' }, '5m')).json.wrap_info.token;
      const lookup = await request(other.url, {
        method: 'POST',
        path: '/v1/sys/wrapping/lookup',
        body: { token: wrapping },
      });
      expect(lookup.json.data.creation_path).toBe('sys/wrapping/wrap');
      const both = await Promise.all(
        [server.url, other.url, server.url, other.url].map((url) =>
          request(url, { method: 'POST', path: '/v1/sys/wrapping/unwrap', token: wrapping }),
        ),
      );
      expect(both.filter((answer) => answer.status === 200).map((answer) => answer.json.data)).toEqual([
        { k: 'shared' },
      ]);
    } finally {
      await other.stop();
    }
  });

  it('two unwraps at once: exactly one gets the answer', async () => {
    const wrapping = (await post('sys/wrapping/wrap', root, { k: 'once' }, '5m')).json.wrap_info.token;
    const answers = await Promise.all([1, 2, 3, 4].map(() => unwrap(wrapping)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(3);
  });

  it('the audit file holds neither the wrapped secret nor the wrapping token, only their hashes', async () => {
    const read = await send({ path: '/v1/secret/data/app/db', token: root, headers: { 'X-Vault-Wrap-TTL': '5m' } });
    const wrapping = read.json.wrap_info.token;
    await unwrap(wrapping);
    const audit = readFileSync(auditFile, 'utf8');
    expect(audit).not.toContain(SECRET);
    expect(audit).not.toContain(wrapping);
    const hash = (await post('sys/audit-hash/file', root, { input: wrapping })).json.data.hash;
    const entry = audit
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((line) => line.type === 'response' && line.response?.wrap_info?.token === hash);
    expect(entry.response.wrap_info).toMatchObject({ ttl: 300, creation_path: 'secret/data/app/db' });
    expect(entry.response).not.toHaveProperty('data');
  });
});
