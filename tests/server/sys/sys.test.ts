// sys/ endpoints: policy names normalised before the ACL check, health's semver version, read-only mounts, and the
// durable state a second server over the same storage sees.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import vault from 'node-vault';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { createServer } from '../../../src/server/server.js';
import { request, startServer, type Started } from '../harness.js';
import { hvacHere } from '../../support/hvac.js';

let started: Started;
let root: string;
let operator: string;
// MemoryStorage, not testStorage(): the last test reads every stored byte to find no token in clear.
const storage = new MemoryStorage();
const send = (options: Parameters<typeof request>[1]) => request(started.url, options);

beforeAll(async () => {
  started = await startServer({ storage });
  root = started.rootToken;
  // An operator may manage every policy except `admin`.
  await send({
    method: 'PUT',
    path: '/v1/sys/policies/acl/operator',
    token: root,
    body: {
      policy:
        'path "sys/policies/acl/*" { capabilities = ["create", "read", "update", "delete", "list"] }\npath "sys/policies/acl/admin" { capabilities = ["deny"] }\npath "sys/policy/admin" { capabilities = ["deny"] }\npath "sys/policy/*" { capabilities = ["create", "update"] }\npath "auth/token/create" { capabilities = ["update"] }',
    },
  });
  await send({
    method: 'PUT',
    path: '/v1/sys/policies/acl/admin',
    token: root,
    body: { policy: 'path "secret/*" { capabilities = ["read"] }' },
  });
  operator = (
    await send({ method: 'POST', path: '/v1/auth/token/create', token: root, body: { policies: ['operator'] } })
  ).json.auth.client_token;
});

afterAll(() => started?.stop());

describe('policy names are normalised before the permission check', () => {
  it.each(['admin', 'ADMIN', 'Admin', '%20admin', 'admin%20', '%09ADMIN'])(
    'a deny on admin also covers %s',
    async (name) => {
      for (const base of ['/v1/sys/policies/acl/', '/v1/sys/policy/']) {
        const write = await send({
          method: 'PUT',
          path: `${base}${name}`,
          token: operator,
          body: { policy: 'path "*" { capabilities = ["sudo", "read"] }' },
        });
        // A tab is refused as a path character (400) before the ACL is even asked; every other spelling is denied.
        expect(write.status).toBe(name.startsWith('%09') ? 400 : 403);
        expect((await send({ method: 'DELETE', path: `${base}${name}`, token: operator })).status).toBe(write.status);
      }
      expect((await send({ path: '/v1/sys/policies/acl/admin', token: root })).json.data.policy).toBe(
        'path "secret/*" { capabilities = ["read"] }',
      );
    },
  );

  it('still lets the operator manage other policies, stored under their canonical name', async () => {
    expect(
      (
        await send({
          method: 'PUT',
          path: '/v1/sys/policies/acl/%20Team',
          token: operator,
          body: { policy: 'path "a" { capabilities = ["read"] }' },
        })
      ).status,
    ).toBe(204);
    expect((await send({ path: '/v1/sys/policies/acl/team', token: operator })).json.data.name).toBe('team');
  });

  it('refuses names that cannot be canonical', async () => {
    expect(
      (
        await send({
          method: 'PUT',
          path: '/v1/sys/policies/acl/%20',
          token: root,
          body: { policy: 'path "a" { capabilities = ["read"] }' },
        })
      ).json,
    ).toEqual({ errors: ['policy name must not be empty'] });
    expect(
      (
        await send({
          method: 'PUT',
          path: `/v1/sys/policies/acl/${'a'.repeat(200)}`,
          token: root,
          body: { policy: 'x' },
        })
      ).status,
    ).toBe(400);
  });
});

describe('health and mounts', () => {
  it('reports a semver version', async () => {
    const health = await send({ path: '/v1/sys/health' });
    expect(health.json.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(health.json).toMatchObject({ initialized: true, sealed: false, standby: false });
  });

  it('lists the mounts, and changes them for a caller the ACL lets', async () => {
    const mounts = await send({ path: '/v1/sys/mounts', token: root });
    expect(mounts.json.data['secret/']).toMatchObject({ type: 'kv', options: { version: '2' } });
    expect((await send({ path: '/v1/sys/mounts/secret', token: root })).json.data.type).toBe('kv');
    expect((await send({ path: '/v1/sys/auth', token: root })).json.data['aws/'].type).toBe('aws');
    const other = { type: 'kv', options: { version: '2' } };
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/other', token: root, body: other })).status).toBe(204);
    expect((await send({ method: 'DELETE', path: '/v1/sys/mounts/other', token: root })).status).toBe(204);
    expect((await send({ path: '/v1/sys/mounts', token: operator })).status).toBe(403);
  });

  it('enables and disables an auth method through node-vault', async () => {
    const client = vault({ endpoint: started.url, token: root });
    await client.enableAuth({ mount_point: 'aws-node', type: 'aws' });
    expect((await client.auths())['aws-node/']).toMatchObject({ type: 'aws' });
    await client.disableAuth({ mount_point: 'aws-node' });
    expect((await client.auths())['aws-node/']).toBeUndefined();
    expect((await send({ method: 'DELETE', path: '/v1/sys/auth/aws', token: operator })).status).toBe(403);
  });

  it('lists the audit devices only for a caller with sudo on sys/audit, as Vault does', async () => {
    const policy = (capabilities: string) =>
      send({
        method: 'PUT',
        path: '/v1/sys/policies/acl/audit-reader',
        token: root,
        body: { policy: `path "sys/audit" { capabilities = [${capabilities}] }` },
      });
    await policy('"read"');
    const reader = (
      await send({ method: 'POST', path: '/v1/auth/token/create', token: root, body: { policies: ['audit-reader'] } })
    ).json.auth.client_token;
    expect((await send({ path: '/v1/sys/audit', token: reader })).status).toBe(403);
    await policy('"read", "sudo"');
    expect((await send({ path: '/v1/sys/audit', token: reader })).status).toBe(200);
  });

  it('lists no audit device when none is configured', async () => {
    expect((await send({ path: '/v1/sys/audit', token: root })).json.data).toEqual({});
  });
});

describe('init and seal status, which Vault clients check before anything else', () => {
  it('answers that the server is initialised and unsealed, without a token', async () => {
    const status = await send({ path: '/v1/sys/seal-status' });
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ initialized: true, sealed: false, progress: 0 });
    expect(status.json.version).toBe((await send({ path: '/v1/sys/health' })).json.version);
    expect((await send({ path: '/v1/sys/init' })).json).toEqual({ initialized: true });
    const again = await send({ method: 'PUT', path: '/v1/sys/init', body: { secret_shares: 1, secret_threshold: 1 } });
    expect(again.status).toBe(400);
    expect(again.json.errors[0]).toMatch(/already initialized/);
  });

  it('satisfies node-vault', async () => {
    const client = vault({ endpoint: started.url });
    expect(await client.initialized()).toEqual({ initialized: true });
    expect((await client.status()).sealed).toBe(false);
  });

  it.skipIf(!hvacHere)('satisfies hvac', async () => {
    const script =
      'import sys, hvac\nc = hvac.Client(url=sys.argv[1])\nprint(c.sys.is_initialized(), c.sys.is_sealed())';
    const { stdout } = await promisify(execFile)('/usr/bin/python3', ['-c', script, started.url]);
    expect(stdout.trim()).toBe('True False');
  });
});

describe('state lives in the storage', () => {
  it('a second server over the same storage serves the same tokens and policies, and makes no new root token', async () => {
    const second = await startServer({ storage });
    try {
      expect(await second.app.ready()).toBeUndefined();
      const read = await request(second.url, { path: '/v1/sys/policies/acl/admin', token: root });
      expect(read.json.data.name).toBe('admin');
      const created = (
        await request(second.url, {
          method: 'POST',
          path: '/v1/auth/token/create',
          token: operator,
          body: { policies: ['operator'] },
        })
      ).json.auth;
      expect((await send({ path: '/v1/auth/token/lookup-self', token: created.client_token })).status).toBe(200);
      expect(
        (
          await send({
            method: 'POST',
            path: '/v1/auth/token/revoke-accessor',
            token: root,
            body: { accessor: created.accessor },
          })
        ).status,
      ).toBe(204);
      expect(
        (await request(second.url, { path: '/v1/auth/token/lookup-self', token: created.client_token })).status,
      ).toBe(403);
    } finally {
      await second.stop();
    }
  });

  it("applies a policy another server rewrote to this server's very next request of a token it has just served", async () => {
    const second = await startServer({ storage });
    try {
      const policy = (capabilities: string) => ({
        method: 'PUT',
        path: '/v1/sys/policies/acl/memo-reader',
        token: root,
        body: { policy: `path "secret/data/memo" { capabilities = ${capabilities} }` },
      });
      await send(policy('["create", "update", "read"]'));
      const token = (
        await send({ method: 'POST', path: '/v1/auth/token/create', token: root, body: { policies: ['memo-reader'] } })
      ).json.auth.client_token;
      const read = () => request(second.url, { path: '/v1/secret/data/memo', token });
      await request(second.url, { method: 'POST', path: '/v1/secret/data/memo', token, body: { data: { a: 1 } } });
      // Twice: the second server has read this token's entry and policy, and made its Acl, at least once before.
      expect((await read()).status).toBe(200);
      expect((await read()).status).toBe(200);
      await send(policy('["deny"]'));
      expect((await read()).status).toBe(403);
      await send(policy('["read"]'));
      expect((await read()).status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  it('takes an empty rootToken as none given: it neither becomes a root token nor retires the current one', async () => {
    const second = await startServer({ storage, rootToken: '' });
    try {
      expect((await request(second.url, { path: '/v1/auth/token/lookup-self', token: root })).status).toBe(200);
      expect(
        (await request(second.url, { path: '/v1/auth/token/lookup-self', headers: { Authorization: 'Bearer ' } }))
          .status,
      ).toBe(403);
    } finally {
      await second.stop();
    }
  });

  it('refuses a maxBodyBytes that is not a positive number under its own name', () => {
    for (const maxBodyBytes of [0, -1, Number.NaN, '1024' as unknown as number]) {
      expect(() => createServer({ maxBodyBytes, log: () => undefined })).toThrow(
        new TypeError('maxBodyBytes must be a positive number of bytes'),
      );
    }
  });

  it('stores no token in clear: only keyed hashes', async () => {
    const everything = await dump(storage);
    expect(everything).not.toContain(root);
    expect(everything).not.toContain(operator);
  });
});

async function dump(storage: MemoryStorage): Promise<string> {
  const parts: string[] = [];
  const walk = async (prefix: string): Promise<void> => {
    for (const name of await storage.list(prefix)) {
      if (name.endsWith('/')) await walk(prefix + name);
      else parts.push(prefix + name, Buffer.from((await storage.get(prefix + name))!).toString('utf8'));
    }
  };
  await walk('');
  return parts.join('\n');
}
