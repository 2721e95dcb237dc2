// ACL policy administration and the root token's own endpoints, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import vault from 'node-vault';
import { request, startServer, type Started } from '../harness.js';

let started: Started;
let root: string;
const send = (options: Parameters<typeof request>[1]) => request(started.url, options);

beforeAll(async () => {
  started = await startServer({ rootToken: 'sr.test-root' });
  root = started.rootToken;
}, 120_000);

afterAll(() => started?.stop());

const readerJson = JSON.stringify({ path: { 'secret/data/*': { capabilities: ['read'] } } });

describe('sys/policies/acl', () => {
  it('takes the root token given to createServer', () => {
    expect(root).toBe('sr.test-root');
  });

  it('stores, reads, lists and deletes a policy in Vault JSON form', async () => {
    expect(
      (await send({ method: 'PUT', path: '/v1/sys/policies/acl/Reader', token: root, body: { policy: readerJson } }))
        .status,
    ).toBe(204);
    const read = await send({ path: '/v1/sys/policies/acl/reader', token: root });
    expect(read.json.data).toEqual({ name: 'reader', policy: readerJson });
    const listed = await send({ method: 'LIST', path: '/v1/sys/policies/acl', token: root });
    expect(listed.json.data).toEqual({ keys: ['default', 'reader', 'root'] });
    expect((await send({ method: 'DELETE', path: '/v1/sys/policies/acl/reader', token: root })).status).toBe(204);
    expect((await send({ path: '/v1/sys/policies/acl/reader', token: root })).status).toBe(404);
    expect((await send({ method: 'DELETE', path: '/v1/sys/policies/acl/reader', token: root })).status).toBe(204);
  });

  it('stores a policy in HCL form and reads the default policy', async () => {
    const hcl = 'path "secret/metadata/*" {\n  capabilities = ["list"]\n}\n';
    expect(
      (await send({ method: 'POST', path: '/v1/sys/policies/acl/lister', token: root, body: { policy: hcl } })).status,
    ).toBe(204);
    expect((await send({ path: '/v1/sys/policies/acl/lister', token: root })).json.data.policy).toBe(hcl);
    expect((await send({ path: '/v1/sys/policies/acl/default', token: root })).json.data.policy).toContain(
      'auth/token/lookup-self',
    );
  });

  it.each([
    [
      { policy: '{"path": {"a": {"capabilities": ["fly"]}}}' },
      'failed to parse policy: path "a": invalid capability "fly"',
    ],
    [{ policy: 'path "a" {' }, 'failed to parse policy: line 1: expected a key, found end of input'],
    [{ policy: '' }, "'policy' parameter not supplied or empty"],
    [{}, "'policy' parameter not supplied or empty"],
    [{ policy: ['path'] }, "'policy' parameter not supplied or empty"],
  ])('refuses %j with 400', async (body, message) => {
    const refused = await send({ method: 'PUT', path: '/v1/sys/policies/acl/broken', token: root, body });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ errors: [message] });
    expect((await send({ path: '/v1/sys/policies/acl/broken', token: root })).status).toBe(404);
  });

  it('protects the root and default policies', async () => {
    const updateRoot = await send({
      method: 'PUT',
      path: '/v1/sys/policies/acl/root',
      token: root,
      body: { policy: readerJson },
    });
    expect(updateRoot.json).toEqual({ errors: ['cannot update "root" policy'] });
    const deleteRoot = await send({ method: 'DELETE', path: '/v1/sys/policies/acl/ROOT', token: root });
    expect(deleteRoot.json).toEqual({ errors: ['cannot delete "root" policy'] });
    const deleteDefault = await send({ method: 'DELETE', path: '/v1/sys/policies/acl/default', token: root });
    expect(deleteDefault.status).toBe(400);
    expect(deleteDefault.json).toEqual({ errors: ['cannot delete "default" policy'] });
  });

  it('requires a token with the right capability', async () => {
    expect((await send({ method: 'LIST', path: '/v1/sys/policies/acl' })).status).toBe(403);
    expect(
      (await send({ method: 'PUT', path: '/v1/sys/policies/acl/x', token: 'sr.nope', body: { policy: readerJson } }))
        .status,
    ).toBe(403);
  });

  it('needs update, never create alone, to write a policy that does not exist yet, on both endpoints', async () => {
    // A placeholder: a token or a role can name a policy before anyone writes it.
    const write = (token: string, path: string) =>
      send({
        method: 'PUT',
        path,
        token,
        body: {
          policy: 'path "*" { capabilities = ["sudo", "read"] }',
          rules: 'path "*" { capabilities = ["sudo", "read"] }',
        },
      });
    const tokenWith = async (capabilities: string) => {
      const name = `writer-${capabilities.replace(/\W/g, '')}`;
      const policy = `path "sys/policies/acl/*" { capabilities = [${capabilities}] }\npath "sys/policy/*" { capabilities = [${capabilities}] }`;
      expect(
        (await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, token: root, body: { policy } })).status,
      ).toBe(204);
      return (
        await send({
          method: 'POST',
          path: '/v1/auth/token/create',
          token: root,
          body: { policies: [name], no_default_policy: true },
        })
      ).json.auth.client_token as string;
    };
    const creator = await tokenWith('"create", "read", "delete", "list", "sudo", "patch", "scan"');
    const updater = await tokenWith('"update"');
    for (const base of ['/v1/sys/policies/acl/', '/v1/sys/policy/']) {
      const refused = await write(creator, `${base}placeholder`);
      expect(refused.status).toBe(403);
      expect((await send({ path: '/v1/sys/policies/acl/placeholder', token: root })).status).toBe(404);
      expect((await write(updater, `${base}placeholder`)).status).toBe(204);
      expect((await send({ method: 'DELETE', path: '/v1/sys/policies/acl/placeholder', token: root })).status).toBe(
        204,
      );
    }
  });

  it('serves the legacy sys/policy endpoints that node-vault calls', async () => {
    const client = vault({ endpoint: started.url, token: root });
    await client.addPolicy({ name: 'legacy', rules: 'path "secret/data/legacy" { capabilities = ["read"] }' });
    const read = await client.getPolicy({ name: 'legacy' });
    expect(read.rules).toBe('path "secret/data/legacy" { capabilities = ["read"] }');
    expect(read.data.rules).toBe(read.rules);
    expect((await client.policies()).policies).toContain('legacy');
    await client.removePolicy({ name: 'legacy' });
    expect((await client.policies()).policies).not.toContain('legacy');
  });
});

describe('the root token', () => {
  it('looks itself up', async () => {
    const client = vault({ endpoint: started.url, token: root });
    const self = await client.tokenLookupSelf();
    expect(self.data).toMatchObject({
      id: root,
      policies: ['root'],
      ttl: 0,
      expire_time: null,
      path: 'auth/token/root',
      renewable: false,
    });
  });

  it('cannot be renewed', async () => {
    const renewed = await send({ method: 'POST', path: '/v1/auth/token/renew-self', token: root, body: {} });
    expect(renewed.status).toBe(400);
    expect(renewed.json).toEqual({ errors: ['lease is not renewable'] });
  });

  it('reports root capabilities everywhere', async () => {
    const answer = await send({
      method: 'POST',
      path: '/v1/sys/capabilities-self',
      token: root,
      body: { paths: ['secret/data/x', 'sys/anything'] },
    });
    expect(answer.json.data).toEqual({ 'secret/data/x': ['root'], 'sys/anything': ['root'], capabilities: ['root'] });
    const refused = await send({ method: 'POST', path: '/v1/sys/capabilities-self', token: root, body: { paths: [] } });
    expect(refused.status).toBe(400);
  });
});
