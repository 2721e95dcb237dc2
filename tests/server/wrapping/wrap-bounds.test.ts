// A policy's min_wrapping_ttl and max_wrapping_ttl over real HTTP: a granted request whose wrap TTL is outside the
// bounds of the rule granting it is refused (403) and never wrapped; within them it is wrapped; elsewhere nothing is
// bounded. Also how X-Vault-Wrap-TTL is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapTtlOf } from '../../../src/server/wrapping/wrap-ttl.js';
import { testStorage } from '../../support/test-storage.js';
import { request, startServer, type Started } from '../harness.js';

describe('wrapTtlOf', () => {
  it('reads seconds and durations; none, empty and 0 ask for no wrapping; the rest is a 400', () => {
    const of = (value?: string | string[]) => wrapTtlOf({ headers: { 'x-vault-wrap-ttl': value } });
    expect([of(), of(''), of('0'), of('90'), of('15m'), of('1h30m')]).toEqual([0, 0, 0, 90, 900, 5400]);
    expect(() => of('-1')).toThrow('requested wrap ttl cannot be negative');
    expect(() => of('soon')).toThrow(/X-Vault-Wrap-TTL/);
    expect(() => of(['1m', '2m'])).toThrow(/X-Vault-Wrap-TTL/);
  });
});

describe('wrapping bounds in policies', () => {
  let server: Started;
  let token: string;
  const send = (method: string, path: string, wrap?: string, body?: unknown) =>
    request(server.url, {
      method,
      path: `/v1/${path}`,
      token,
      body,
      headers: wrap === undefined ? {} : { 'X-Vault-Wrap-TTL': wrap },
    });

  beforeAll(async () => {
    server = await startServer({ storage: testStorage() });
    const root = { token: server.rootToken };
    const policy = `
      path "secret/data/wrapped/*" {
        capabilities = ["read", "create", "update"]
        min_wrapping_ttl = "1m"
        max_wrapping_ttl = "10m"
      }
      path "secret/data/free/*" { capabilities = ["read", "create", "update"] }`;
    expect(
      (await request(server.url, { method: 'PUT', path: '/v1/sys/policies/acl/bounded', ...root, body: { policy } }))
        .status,
    ).toBe(204);
    await request(server.url, {
      method: 'POST',
      path: '/v1/secret/data/wrapped/a',
      ...root,
      body: { data: { k: 'v' } },
    });
    const created = await request(server.url, {
      method: 'POST',
      path: '/v1/auth/token/create',
      ...root,
      body: { policies: ['bounded'] },
    });
    token = created.json.auth.client_token as string;
  }, 60_000);

  afterAll(() => server?.stop());

  it('refuse a request outside them, unwrapped or wrapped too briefly or too long, with 403 and nothing wrapped', async () => {
    for (const wrap of [undefined, '30', '601']) {
      const outside = await send('GET', 'secret/data/wrapped/a', wrap);
      expect([outside.status, outside.json]).toEqual([403, { errors: ['permission denied'] }]);
    }
    expect((await send('POST', 'secret/data/wrapped/b', undefined, { data: { k: 'v' } })).status).toBe(403);
  });

  it('wrap a request within them', async () => {
    const within = await send('GET', 'secret/data/wrapped/a', '5m');
    expect(within.status).toBe(200);
    expect(within.json.wrap_info.ttl).toBe(300);
    expect(within.json.data).toBeNull();
  });

  it('bound nothing elsewhere', async () => {
    expect((await send('POST', 'secret/data/free/a', undefined, { data: { k: 'v' } })).status).toBe(200);
    const wrapped = await send('GET', 'secret/data/free/a', '30');
    expect(wrapped.json.wrap_info.ttl).toBe(30);
  });
});
