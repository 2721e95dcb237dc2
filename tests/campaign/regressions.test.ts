import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import { InternalError, InvalidRequest } from '../../src/lib/errors.js';
import { MAX_JSON_DEPTH } from '../../src/core/framework/request-shape.js';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { JsonStore } from '../../src/core/store/stored-json.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { FaultyStorage } from '../support/faulty-storage.js';
import { testStorage } from '../support/test-storage.js';
import { LateFaultStorage } from './support/storages.js';

/** One test per bug the hostile-input campaign found, pinned at the smallest request that showed it. */

function engines() {
  const faults: unknown[] = [];
  const onInternalError = (error: unknown) => faults.push(error);
  const kv = new KvEngine({ storage: testStorage(), onInternalError });
  const auth = new AuthEngine({ storage: testStorage(), cloud: new FakeCloud(), env: {}, onInternalError });
  return { kv, auth, faults };
}

function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

describe('requests of the wrong shape are a 400, not a TypeError answered 500', () => {
  it.each([
    { name: 'no request at all', request: undefined, message: 'the request must be an object' },
    { name: 'null', request: null, message: 'the request must be an object' },
    {
      name: 'a header value that is a number',
      request: { method: 'PATCH', path: 'data/k', headers: { 'content-type': 5 }, body: {} },
      message: 'header "content-type" must be a string or a list of strings',
    },
    {
      name: 'a header value that is an object',
      request: { method: 'GET', path: 'data/k', headers: { accept: {} } },
      message: 'header "accept" must be a string',
    },
    {
      name: 'headers that are a string',
      request: { method: 'GET', path: 'data/k', headers: 'content-type: x' },
      message: 'the request headers must be an object',
    },
    {
      name: 'a query that is a string',
      request: { method: 'GET', path: 'data/k', query: 'list=true' },
      message: 'the request query must be an object',
    },
    {
      name: 'a remoteAddress that is a number',
      request: { method: 'GET', path: 'data/k', remoteAddress: 167772161 },
      message: 'the request remoteAddress must be a string',
    },
  ])('$name', async ({ request, message }) => {
    const { kv, auth, faults } = engines();
    for (const engine of [kv, auth]) {
      const response = await engine.handle(request as unknown as EngineRequest);
      expect(response.status).toBe(400);
      expect((response.body as { errors: string[] }).errors[0]).toContain(message);
    }
    expect(faults).toEqual([]);
  });

  it('a list flag that is not text is no LIST, and no crash', async () => {
    const { kv, faults } = engines();
    const response = await kv.handle({
      method: 'GET',
      path: 'metadata/',
      query: { list: 5 },
    } as unknown as EngineRequest);
    expect(response.status).toBe(400);
    expect(faults).toEqual([]);
  });
});

describe('deeply nested JSON is refused before any engine walks or stores it', () => {
  const MERGE = { 'Content-Type': 'application/merge-patch+json' };

  it.each([
    { name: 'KV write', request: (data: unknown) => ({ method: 'POST', path: 'data/k', body: { data: { x: data } } }) },
    {
      name: 'KV merge patch',
      request: (data: unknown) => ({ method: 'PATCH', path: 'data/k', headers: MERGE, body: { data: { x: data } } }),
    },
    {
      name: 'KV JSON patch',
      request: (data: unknown) => ({
        method: 'PATCH',
        path: 'data/k',
        headers: { 'Content-Type': 'application/json-patch+json' },
        body: { data: [{ op: 'add', path: '/x', value: data }] },
      }),
    },
    {
      name: 'auth role write',
      request: (data: unknown) => ({ method: 'POST', path: 'role/r', body: { auth_type: 'ec2', bound_ami_id: data } }),
    },
    {
      name: 'auth login',
      request: (data: unknown) => ({ method: 'POST', path: 'login', body: { iam_request_headers: data } }),
    },
  ] satisfies { name: string; request: (data: unknown) => EngineRequest }[])(
    '$name: 400 at 100000 levels, where it used to overflow the stack (500)',
    async ({ request }) => {
      const { kv, auth, faults } = engines();
      await kv.handle({ method: 'POST', path: 'data/k', body: { data: { v: 1 } } });
      const engine = request(1).path.startsWith('data/') ? kv : auth;
      const response = await engine.handle(request(nested(100_000)));
      expect(response).toEqual({
        status: 400,
        body: { errors: [`the request body is nested more than ${MAX_JSON_DEPTH} levels deep`] },
      });
      expect(faults).toEqual([]);
    },
  );

  it('accepts documents up to the limit, and the typed API applies the same limit', async () => {
    const { kv } = engines();
    // The body object is the first level of nesting, `data` and what it holds the others.
    expect(
      (await kv.handle({ method: 'POST', path: 'data/k', body: { data: nested(MAX_JSON_DEPTH - 1) } })).status,
    ).toBe(200);
    expect((await kv.handle({ method: 'POST', path: 'data/k', body: { data: nested(MAX_JSON_DEPTH) } })).status).toBe(
      400,
    );
    await expect(kv.write('k', nested(100_000) as Record<string, unknown>)).rejects.toThrow(InvalidRequest);
  });

  it('refuses a body that contains itself or a BigInt, which JSON cannot carry', async () => {
    const { kv, faults } = engines();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect((await kv.handle({ method: 'POST', path: 'data/k', body: { data: cyclic } })).status).toBe(400);
    expect((await kv.handle({ method: 'POST', path: 'data/k', body: { data: { n: 10n } } })).status).toBe(400);
    await expect(kv.write('k', { n: 10n })).rejects.toThrow(InvalidRequest);
    // Shared (not cyclic) references are ordinary JSON for a JavaScript caller.
    const shared = { x: 1 };
    expect((await kv.handle({ method: 'POST', path: 'data/k', body: { data: { a: shared, b: shared } } })).status).toBe(
      200,
    );
    expect(faults).toEqual([]);
  });
});

/** A storage that maps each key before it uses it, as a backend with its own idea of keys does; records reads. */
class KeyMappingStorage implements Storage {
  readonly read: string[] = [];
  private readonly inner = new MemoryStorage();
  constructor(private readonly map: (key: string) => string) {}
  get(key: string) {
    this.read.push(this.map(key));
    return this.inner.get(this.map(key));
  }
  put(key: string, value: Uint8Array) {
    return this.inner.put(this.map(key), value);
  }
  delete(key: string) {
    return this.inner.delete(this.map(key));
  }
  list(prefix: string) {
    return this.inner.list(this.map(prefix));
  }
}

/** Keys stored as UTF-8 text, as a database or a file system stores them. */
const utf8Keyed = () => new KeyMappingStorage((key) => Buffer.from(key, 'utf8').toString('utf8'));
/** '.' and '..' in keys resolved, as a storage that maps keys onto files does. */
const fileLike = () => new KeyMappingStorage((key) => (key.endsWith('/') ? key : posix.normalize(key)));

describe('paths with unpaired surrogates', () => {
  it('are refused, so two different paths can never share a record in a UTF-8 keyed storage', async () => {
    const kv = new KvEngine({ storage: utf8Keyed() });
    expect(await kv.handle({ method: 'POST', path: 'data/a\uD800', body: { data: { owner: 'alice' } } })).toEqual({
      status: 400,
      body: { errors: ['invalid path: not valid Unicode (an unpaired surrogate)'] },
    });
    // Before the fix, this read answered alice's secret: both paths are "data/a\uFFFD" once encoded.
    expect((await kv.handle({ method: 'GET', path: 'data/a\uDBFF' })).status).toBe(400);
    expect((await kv.handle({ method: 'GET', path: 'data/a\uD83D\uDE00' })).status).toBe(404);
  });
});

describe('a role name taken from a presented role tag', () => {
  it('never leaves the role folder: deny-listing a tag naming "../config/client" is a 400, not a read of config/client (500)', async () => {
    const storage = fileLike();
    const faults: unknown[] = [];
    const auth = new AuthEngine({
      storage,
      cloud: new FakeCloud(),
      env: {},
      onInternalError: (error) => faults.push(error),
    });
    await auth.handle({
      method: 'POST',
      path: 'config/client',
      body: { access_key: 'AKIAEXAMPLE', secret_key: 'secret' },
    });
    storage.read.length = 0;
    const tag = Buffer.from('v1:bm9uY2U:r=../config/client:d=false:m=false:aG1hYw').toString('base64url');
    const response = await auth.handle({ method: 'POST', path: `roletag-denylist/${tag}` });
    expect(response).toEqual({ status: 400, body: { errors: ['entry not found for "../config/client"'] } });
    expect(storage.read).not.toContain('auth/config/client');
    expect(faults).toEqual([]);
  });
});

describe('a storage write that took effect but reported failure (a lost acknowledgement)', () => {
  it('counts as committed: JsonStore.update resolves instead of answering 500 for a change that was made', async () => {
    const inner = new MemoryStorage();
    const late = new LateFaultStorage(inner);
    const store = new JsonStore(late);
    late.arm(2, { only: ['get', 'compareAndPut'] });
    const result = await store.update<{ n: number }>('doc', () => ({ n: 1 }));
    expect(late.failed).toBe(true);
    expect(result).toMatchObject({ next: { n: 1 }, written: true });
    // A write that did not take effect still fails.
    const faulty = new FaultyStorage(inner);
    faulty.arm(2, { only: ['get', 'compareAndPut'] });
    await expect(new JsonStore(faulty).update<{ n: number }>('doc', () => ({ n: 2 }))).rejects.toThrow(InternalError);
    expect(JSON.parse(Buffer.from((await inner.get('doc')) as Uint8Array).toString())).toEqual({ n: 1 });
  });

  it('rotate-root never deletes the new key once config/client holds it, so the engine is not locked out', async () => {
    const inner = new MemoryStorage();
    const cloud = new FakeCloud();
    cloud.addUserWithKey('ellen', { accessKeyId: 'AKIAOLD', secretAccessKey: 'old-secret' });
    const setup = new AuthEngine({ storage: inner, cloud, env: {} });
    await setup.handle({
      method: 'POST',
      path: 'config/client',
      body: { access_key: 'AKIAOLD', secret_key: 'old-secret' },
    });
    // The commit of the new key lands, its answer is lost, and the read that would confirm it fails too.
    const late = new LateFaultStorage(inner);
    let failReads = false;
    const storage: Storage = {
      get: async (key) => {
        if (failReads) throw new Error('storage unreachable');
        return late.get(key);
      },
      put: (key, value) => late.put(key, value),
      delete: (key) => late.delete(key),
      list: (prefix) => late.list(prefix),
      compareAndPut: async (key, expected, value) => {
        try {
          return await (late.compareAndPut as NonNullable<Storage['compareAndPut']>)(key, expected, value);
        } finally {
          failReads = late.failed;
        }
      },
    };
    late.arm(1, { only: ['compareAndPut'] });
    const response = await new AuthEngine({ storage, cloud, env: {} }).handle({
      method: 'POST',
      path: 'config/rotate-root',
    });
    expect(response.status).toBe(500);
    const stored = JSON.parse(Buffer.from((await inner.get('auth/config/client')) as Uint8Array).toString()) as {
      access_key: string;
    };
    expect(stored.access_key).not.toBe('AKIAOLD');
    expect(cloud.accessKeysOf('ellen')).toContain(stored.access_key);
  });
});
