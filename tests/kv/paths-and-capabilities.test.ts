import { describe, expect, it } from 'vitest';
import type { Capability, EngineRequest, Storage } from '../../src/index.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { dataOf, expectPlain404, MERGE, policy, setup } from './helpers.js';

const INVALID = 'Invalid path for a versioned K/V secrets engine.';
const ROOT = 'Non-listing operations on the root of a K/V v2 mount are not supported.';

/** A storage that records every key touched, to prove that refused requests never reach it. */
function recordingStorage() {
  const inner = new MemoryStorage();
  const touched: string[] = [];
  const storage: Storage = {
    get: (key) => (touched.push(key), inner.get(key)),
    put: (key, value) => (touched.push(key), inner.put(key, value)),
    delete: (key) => (touched.push(key), inner.delete(key)),
    list: (prefix) => (touched.push(prefix), inner.list(prefix)),
    compareAndPut: (key, expected, value) => (touched.push(key), inner.compareAndPut(key, expected, value)),
  };
  return { storage, touched };
}

describe('paths (decision 7)', () => {
  it.each([
    ['GET', 'data/team/public/../protected/x'],
    ['PUT', 'destroy/team/public/../protected/x'],
    ['GET', 'metadata/team/public////protected/x'],
    ['GET', 'metadata/team/public//protected/x'],
    ['GET', 'data/./x'],
    ['LIST', 'metadata/a/../'],
    ['GET', '/data/x'],
  ] as const)('81: %s %s answers 400 before any storage access', async (method, path) => {
    const { storage, touched } = recordingStorage();
    const env = setup({ storage });
    const response = await env.handle({ method, path, body: { versions: [1] } });
    expect(response.status).toBe(400);
    expect(touched).toEqual([]);
  });

  it('81: a trailing slash on a metadata key answers 404', async () => {
    const env = setup();
    await env.W('team/public/x', { a: 1 });
    expect((await env.MR('team/public/x/')).status).toBe(404);
  });

  it('24: data/foo/ is no key: 404 with the invalid-path warning', async () => {
    const env = setup();
    const response = await env.handle({ method: 'POST', path: 'data/foo/', body: { data: { a: 1 } } });
    expect(response.status).toBe(404);
    expect(dataOf(response)).toBeNull();
    expect((response.body as { warnings: string[] }).warnings[0]).toContain(INVALID);
    expect((response.body as { warnings: string[] }).warnings[0]).toContain("'vault kv put'");
    expectPlain404(await env.MR('foo'));
  });

  it.each(['data', 'metadata', 'delete', 'undelete', 'destroy'])(
    'non-list operations on the root %s carry the root warning',
    async (root) => {
      const env = setup();
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        expect(await env.handle({ method, path: root, body: {} })).toEqual({
          status: 404,
          body: { data: null, warnings: [ROOT] },
        });
      }
      expect(await env.handle({ method: 'PATCH', path: root, body: {}, headers: MERGE })).toEqual({
        status: 404,
        body: { data: null, warnings: [ROOT] },
      });
    },
  );

  it.each([
    ['GET', 'foo', 'get'],
    ['LIST', 'data', 'list'],
    ['POST', 'subkeys', 'put'],
    ['DELETE', 'data/foo/', 'delete'],
    ['PATCH', 'something/else', 'patch'],
    ['GET', 'subkeys/', 'get'],
    ['LIST', '', 'list'],
    ['GET', '', 'get'],
  ] as const)('other unmatched paths: %s %j warns to use vault kv %s', async (method, path, verb) => {
    const response = await setup().handle({ method, path, body: {}, headers: MERGE });
    expect(response.status).toBe(404);
    expect((response.body as { warnings: string[] }).warnings).toEqual([
      `${INVALID} See the API docs for the appropriate API endpoints to use. If using the Vault CLI, use 'vault kv ${verb}' for this operation.`,
    ]);
  });

  it('answers 405 for a method a matched path does not support', async () => {
    const env = setup();
    expect((await env.handle({ method: 'DELETE', path: 'subkeys/foo' })).status).toBe(405);
    expect((await env.handle({ method: 'GET', path: 'destroy/foo' })).status).toBe(405);
  });

  it('refuses a body that is not a JSON object with a 400', async () => {
    const env = setup();
    expect((await env.handle({ method: 'POST', path: 'data/foo', body: [1, 2] })).status).toBe(400);
    expect((await env.handle({ method: 'POST', path: 'data/foo', body: 'text' })).status).toBe(400);
  });
});

describe('capabilities', () => {
  const cases: [string, EngineRequest, Capability, string][] = [
    ['read secret', { method: 'GET', path: 'data/foo' }, 'read', 'data/foo'],
    ['patch secret', { method: 'PATCH', path: 'data/foo', body: { data: {} }, headers: MERGE }, 'patch', 'data/foo'],
    ['delete latest', { method: 'DELETE', path: 'data/foo' }, 'delete', 'data/foo'],
    ['soft-delete versions', { method: 'POST', path: 'delete/foo', body: { versions: [1] } }, 'update', 'delete/foo'],
    ['undelete', { method: 'POST', path: 'undelete/foo', body: { versions: [1] } }, 'update', 'undelete/foo'],
    ['destroy', { method: 'PUT', path: 'destroy/foo', body: { versions: [1] } }, 'update', 'destroy/foo'],
    ['subkeys', { method: 'GET', path: 'subkeys/foo' }, 'read', 'subkeys/foo'],
    ['read metadata', { method: 'GET', path: 'metadata/foo' }, 'read', 'metadata/foo'],
    [
      'patch metadata',
      { method: 'PATCH', path: 'metadata/foo', body: { max_versions: 1 }, headers: MERGE },
      'patch',
      'metadata/foo',
    ],
    ['delete metadata', { method: 'DELETE', path: 'metadata/foo' }, 'delete', 'metadata/foo'],
    ['list', { method: 'LIST', path: 'metadata/dir' }, 'list', 'metadata/dir/'],
    ['read config', { method: 'GET', path: 'config' }, 'read', 'config'],
    ['write config', { method: 'POST', path: 'config', body: { max_versions: 3 } }, 'update', 'config'],
  ];

  it.each(cases.map(([name, request, capability, path]) => ({ name, request, capability, path })))(
    '$name asks once for $capability on $path; a refusal is 403 and changes nothing',
    async ({ request, capability, path }) => {
      const env = setup();
      await env.W('foo', { a: 1 });
      await env.W('dir/x', { a: 1 });
      const before = await Promise.all([env.R('foo'), env.MR('foo'), env.handle({ method: 'GET', path: 'config' })]);
      const denied = policy();
      const response = await env.handle({ ...request, authorize: denied.authorize });
      expect(response.status).toBe(403);
      expect((response.body as { errors: string[] }).errors.join()).toContain('permission denied');
      expect(denied.asked).toEqual([{ capability, path }]);
      expect(await Promise.all([env.R('foo'), env.MR('foo'), env.handle({ method: 'GET', path: 'config' })])).toEqual(
        before,
      );
      // Once the folder is granted, a listing also asks about each name it would answer (dir/ holds only x).
      const allowed = policy(`${capability}:${path}`, ...(capability === 'list' ? ['list:metadata/dir/x'] : []));
      expect((await env.handle({ ...request, authorize: allowed.authorize })).status).toBeLessThan(400);
    },
  );

  it('82: create is needed while the key has no metadata, update afterwards', async () => {
    const env = setup();
    const createOnly = policy('create:data/foo');
    expect(
      (
        await env.handle({
          method: 'POST',
          path: 'data/foo',
          body: { data: { a: 1 } },
          authorize: createOnly.authorize,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await env.handle({
          method: 'POST',
          path: 'data/foo',
          body: { data: { a: 2 } },
          authorize: createOnly.authorize,
        })
      ).status,
    ).toBe(403);
    const updateOnly = policy('update:data/bar');
    expect(
      (
        await env.handle({
          method: 'POST',
          path: 'data/bar',
          body: { data: { a: 1 } },
          authorize: updateOnly.authorize,
        })
      ).status,
    ).toBe(403);
    expect(updateOnly.asked).toEqual([{ capability: 'create', path: 'data/bar' }]);
  });

  it('82: a key with only metadata, or only deleted versions, exists: writing needs update', async () => {
    const env = setup();
    await env.MD('meta', { max_versions: 2 });
    await env.W('gone', { a: 1 });
    await env.DEL('gone');
    for (const name of ['meta', 'gone']) {
      const check = policy(`update:data/${name}`);
      expect(
        (
          await env.handle({
            method: 'POST',
            path: `data/${name}`,
            body: { data: { a: 1 } },
            authorize: check.authorize,
          })
        ).status,
      ).toBe(200);
      expect(check.asked).toEqual([{ capability: 'update', path: `data/${name}` }]);
    }
  });

  it('metadata writes follow the same create/update rule', async () => {
    const env = setup();
    const check = policy('create:metadata/foo');
    expect(
      (
        await env.handle({
          method: 'POST',
          path: 'metadata/foo',
          body: { max_versions: 1 },
          authorize: check.authorize,
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await env.handle({
          method: 'POST',
          path: 'metadata/foo',
          body: { max_versions: 2 },
          authorize: check.authorize,
        })
      ).status,
    ).toBe(403);
  });

  it('83: create and update do not grant patch; read on data/ does not grant subkeys/', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    const writer = policy('create:data/foo', 'update:data/foo');
    expect(
      (
        await env.handle({
          method: 'PATCH',
          path: 'data/foo',
          body: { data: { b: 1 } },
          headers: MERGE,
          authorize: writer.authorize,
        })
      ).status,
    ).toBe(403);
    const reader = policy('read:data/foo');
    expect((await env.handle({ method: 'GET', path: 'subkeys/foo', authorize: reader.authorize })).status).toBe(403);
    expect((await env.handle({ method: 'GET', path: 'data/foo', authorize: reader.authorize })).status).toBe(200);
  });

  it('84: read on data/ alone shows custom_metadata', async () => {
    const env = setup();
    await env.MD('foo', { custom_metadata: { owner: 'ops' } });
    await env.W('foo', { a: 1 });
    const reader = policy('read:data/foo');
    const response = await env.handle({ method: 'GET', path: 'data/foo', authorize: reader.authorize });
    expect(dataOf(response).metadata.custom_metadata).toEqual({ owner: 'ops' });
    expect(reader.asked).toEqual([{ capability: 'read', path: 'data/foo' }]);
  });

  it('an async authorize works the same', async () => {
    const env = setup();
    const response = await env.handle({ method: 'GET', path: 'config', authorize: async () => false });
    expect(response.status).toBe(403);
  });
});
