// POST sys/rotate and GET sys/key-status, as Vault answers them: rotate is root-protected (sudo as well as update),
// and a caller refused changes nothing; a server whose storage is not encrypted says it has no keys to manage.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptedStorage, MemoryStorage } from '../../../src/index.js';
import { request, startServer, type Started } from '../harness.js';

let started: Started;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: started.rootToken, ...options });

async function tokenWith(rules: string): Promise<string> {
  const name = `p${randomBytes(4).toString('hex')}`;
  expect((await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy: rules } })).status).toBe(
    204,
  );
  const created = await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: [name] } });
  expect(created.status).toBe(200);
  return created.json.auth.client_token as string;
}

const term = async () => (await send({ path: '/v1/sys/key-status' })).json.data.term as number;

beforeAll(async () => {
  started = await startServer({
    storage: new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) }),
  });
});
afterAll(() => started?.stop());

describe('sys/rotate and sys/key-status', () => {
  it("answers Vault's key status: term and install_time, at the top level and under data", async () => {
    const status = await send({ path: '/v1/sys/key-status' });
    expect(status.status).toBe(200);
    expect(status.json.data).toEqual({ term: 1, install_time: expect.any(String) });
    expect(status.json.term).toBe(1);
    expect(status.json.install_time).toBe(status.json.data.install_time);
    expect(Math.abs(Date.parse(status.json.data.install_time) - Date.now())).toBeLessThan(60_000);
  });

  it('refuses rotation with 403, changing nothing, to tokens without sudo on sys/rotate', async () => {
    const before = await term();
    const callers = [
      await tokenWith('path "sys/rotate" { capabilities = ["create", "read", "update", "delete", "list"] }'),
      await tokenWith('path "sys/*" { capabilities = ["create", "read", "update", "delete", "list", "patch"] }'),
      await tokenWith('path "sys/rotate" { capabilities = ["sudo"] }'),
      await tokenWith(
        'path "sys/rotate" { capabilities = ["update", "sudo"] }\npath "sys/rotate" { capabilities = ["deny"] }',
      ),
      'not-a-token',
    ];
    for (const token of callers) {
      for (const method of ['POST', 'PUT']) {
        const refused = await request(started.url, { method, path: '/v1/sys/rotate', token });
        expect(refused.status).toBe(403);
      }
    }
    expect((await request(started.url, { method: 'POST', path: '/v1/sys/rotate' })).status).toBe(403);
    expect(await term()).toBe(before);
  });

  it('rotates for a token with update and sudo on sys/rotate, with 204 and a new term', async () => {
    const before = await term();
    const token = await tokenWith('path "sys/rotate" { capabilities = ["update", "sudo"] }');
    const rotated = await request(started.url, { method: 'POST', path: '/v1/sys/rotate', token });
    expect(rotated.status).toBe(204);
    expect(rotated.text).toBe('');
    expect(await term()).toBe(before + 1);
    expect(await request(started.url, { path: '/v1/sys/key-status', token }).then((r) => r.status)).toBe(403);
    // Newer Vault's name for the same operation, with its own ACL path.
    expect((await request(started.url, { method: 'POST', path: '/v1/sys/rotate/keyring', token })).status).toBe(403);
    expect((await send({ method: 'POST', path: '/v1/sys/rotate/keyring' })).status).toBe(204);
    expect(await term()).toBe(before + 2);
  });

  it('answers key status to a token with read on it, and only to one', async () => {
    const reader = await tokenWith('path "sys/key-status" { capabilities = ["read"] }');
    expect((await request(started.url, { path: '/v1/sys/key-status', token: reader })).status).toBe(200);
    expect((await request(started.url, { method: 'POST', path: '/v1/sys/rotate', token: reader })).status).toBe(403);
    const other = await tokenWith('path "sys/key-status" { capabilities = ["update", "list"] }');
    expect((await request(started.url, { path: '/v1/sys/key-status', token: other })).status).toBe(403);
  });

  it('says why over a storage that is not encrypted', async () => {
    const plain = await startServer({ storage: new MemoryStorage() });
    try {
      for (const [method, path] of [
        ['POST', '/v1/sys/rotate'],
        ['GET', '/v1/sys/key-status'],
      ] as const) {
        const answer = await request(plain.url, { method, path, token: plain.rootToken });
        expect(answer.status).toBe(400);
        expect(answer.json.errors[0]).toContain('no encryption keys to manage');
      }
    } finally {
      await plain.stop();
    }
  });
});
