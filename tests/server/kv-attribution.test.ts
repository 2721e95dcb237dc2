// KV from Vault 1.21 over real HTTP: who wrote and who deleted each version (created_by, deleted_by, and the key's
// last_updated_by) in metadata answers, and the exclude_deleted flag of a metadata LIST, authorised and paged.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type RawRequest, type Started } from './harness.js';

let started: Started;
const send = (options: RawRequest) => request(started.url, { token: started.rootToken, ...options });

/** Vault's client id of a token without an entity: SHA-256 of its sorted policies and the root namespace's id. */
function clientId(policies: string[]): string {
  const input = `${[...policies].sort().join('\x7f')}\x00root`;
  return createHash('sha256').update(input).digest('base64');
}

async function metadata(path: string) {
  const answer = await send({ path: `/v1/secret/metadata/${path}` });
  expect(answer.status).toBe(200);
  return answer.json.data;
}

/** A child token with `policies`, its display name 'token-<name>'. */
async function childToken(name: string, policies: string[]): Promise<string> {
  const made = await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies, display_name: name } });
  expect(made.status).toBe(200);
  return made.json.auth.client_token as string;
}

beforeAll(async () => {
  started = await startServer();
  const policy = {
    policy: [
      'path "secret/data/*" { capabilities = ["create", "read", "update", "patch", "delete"] }',
      'path "secret/delete/*" { capabilities = ["update"] }',
      'path "secret/undelete/*" { capabilities = ["update"] }',
      'path "secret/metadata/*" { capabilities = ["list", "read"] }',
      'path "secret/metadata/listed/hidden" { capabilities = ["deny"] }',
    ].join('\n'),
  };
  expect((await send({ method: 'POST', path: '/v1/sys/policies/acl/writer', body: policy })).status).toBe(204);
}, 120_000);

afterAll(() => started?.stop());

describe('created_by, deleted_by and last_updated_by (Vault 1.21)', () => {
  it('record the token behind each write, delete and undelete, with Vault operation names', async () => {
    const root = { actor: 'root', client_id: clientId(['root']) };
    expect((await send({ method: 'POST', path: '/v1/secret/data/app/db', body: { data: { v: 1 } } })).status).toBe(200);
    let read = await metadata('app/db');
    expect(read.versions['1']).toMatchObject({ created_by: { ...root, operation: 'create' }, deleted_by: null });
    expect(read.last_updated_by).toEqual({ ...root, operation: 'create' });

    const alice = await childToken('alice', ['writer']);
    const asAlice = { actor: 'token-alice', client_id: clientId(['default', 'writer']) };
    const lookup = await send({ method: 'GET', path: '/v1/auth/token/lookup-self', token: alice });
    expect(clientId(lookup.json.data.policies)).toBe(asAlice.client_id);
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const steps: [RawRequest['method'], string, unknown, number][] = [
      ['POST', 'data/app/db', { data: { v: 2 } }, 200],
      ['PATCH', 'data/app/db', { data: { w: 3 } }, 200],
      ['DELETE', 'data/app/db', undefined, 204],
      ['POST', 'delete/app/db', { versions: [1] }, 204],
    ];
    for (const [method, path, body, status] of steps) {
      const headers = method === 'PATCH' ? merge : {};
      expect((await send({ method, path: `/v1/secret/${path}`, token: alice, body, headers })).status).toBe(status);
    }
    read = await metadata('app/db');
    expect(read.versions['1'].deleted_by).toEqual({ ...asAlice, operation: 'update' });
    expect(read.versions['2']).toMatchObject({ created_by: { ...asAlice, operation: 'update' }, deleted_by: null });
    expect(read.versions['3'].created_by).toEqual({ ...asAlice, operation: 'patch' });
    expect(read.versions['3'].deleted_by).toEqual({ ...asAlice, operation: 'delete' });
    expect(read.last_updated_by).toEqual({ ...asAlice, operation: 'update' });

    const undone = await send({ method: 'POST', path: '/v1/secret/undelete/app/db', body: { versions: [1, 3] } });
    expect(undone.status).toBe(204);
    read = await metadata('app/db');
    expect(read.versions['1']).toMatchObject({ created_by: { ...root, operation: 'create' }, deleted_by: null });
    expect(read.versions['3']).toMatchObject({ deletion_time: '', deleted_by: null });
    expect(read.last_updated_by).toEqual({ ...root, operation: 'undelete' });
    // The entity id is empty (no identity store), so it is left out, as Vault leaves out an empty field.
    expect(Object.keys(read.versions['1'].created_by).sort()).toEqual(['actor', 'client_id', 'operation']);
  });

  it('a key whose versions were never attributed answers null, and the data read shows no actor', async () => {
    expect(
      (await send({ method: 'POST', path: '/v1/secret/metadata/meta-only', body: { max_versions: 2 } })).status,
    ).toBe(204);
    const read = await metadata('meta-only');
    expect(read.last_updated_by).toBeNull();
    expect(read.versions).toEqual({});
    const data = await send({ path: '/v1/secret/data/app/db' });
    expect(Object.keys(data.json.data.metadata).sort()).toEqual([
      'created_time',
      'custom_metadata',
      'deletion_time',
      'destroyed',
      'version',
    ]);
  });
});

describe('exclude_deleted on a metadata LIST (Vault 1.21)', () => {
  const list = (folder: string, query: string, token?: string) =>
    send({ method: 'LIST', path: `/v1/secret/metadata/${folder}?${query}`, ...(token ? { token } : {}) });

  it('hides keys whose current version is deleted, keeps folders and destroyed-only heads, and pages after filtering', async () => {
    const write = (path: string) =>
      send({ method: 'POST', path: `/v1/secret/data/listed/${path}`, body: { data: { a: 1 } } });
    for (const path of ['a', 'b-deleted', 'c', 'd-destroyed', 'e', 'hidden', 'sub/x'])
      expect((await write(path)).status).toBe(200);
    expect((await send({ method: 'DELETE', path: '/v1/secret/data/listed/b-deleted' })).status).toBe(204);
    const destroyed = await send({
      method: 'PUT',
      path: '/v1/secret/destroy/listed/d-destroyed',
      body: { versions: [1] },
    });
    expect(destroyed.status).toBe(204);

    expect((await list('listed', 'exclude_deleted=false')).json.data.keys).toEqual([
      'a',
      'b-deleted',
      'c',
      'd-destroyed',
      'e',
      'hidden',
      'sub/',
    ]);
    // Vault 1.21 looks only at the current version's deletion_time: destroying does not set one.
    expect((await list('listed', 'exclude_deleted=true')).json.data.keys).toEqual([
      'a',
      'c',
      'd-destroyed',
      'e',
      'hidden',
      'sub/',
    ]);
    expect((await list('listed', 'exclude_deleted=true&limit=2&after=a')).json.data.keys).toEqual(['c', 'd-destroyed']);

    // A token's listing stays authorised: the key its policy denies is left out, before the filter and the page.
    const bob = await childToken('bob', ['writer']);
    expect((await list('listed', 'exclude_deleted=true', bob)).json.data.keys).toEqual([
      'a',
      'c',
      'd-destroyed',
      'e',
      'sub/',
    ]);
    expect((await list('listed', 'exclude_deleted=true&limit=4', bob)).json.data.keys).toEqual([
      'a',
      'c',
      'd-destroyed',
      'e',
    ]);
    expect((await list('listed', 'exclude_deleted=maybe')).status).toBe(400);
  });
});
