import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { InvalidRequest, KvV1Engine, NotFound, type KvV1EngineOptions } from '../../src/index.js';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { testStorage } from '../support/test-storage.js';
import { expectError, expectPlain404, policy } from './helpers.js';

function setup(options: Partial<KvV1EngineOptions> = {}) {
  const kv = new KvV1Engine({ clock: new ManualClock('2026-03-01T12:00:00Z'), storage: testStorage(), ...options });
  const handle = (request: EngineRequest) => kv.handle(request);
  return {
    kv,
    handle,
    W: (path: string, body: unknown) => handle({ method: 'POST', path, body }),
    R: (path: string) => handle({ method: 'GET', path }),
    LIST: (path: string, query: Record<string, string> = {}) => handle({ method: 'LIST', path, query }),
    DEL: (path: string) => handle({ method: 'DELETE', path }),
  };
}

describe('KvV1Engine over the wire (Vault passthrough)', () => {
  it('writes any JSON object whole (204) and reads it back as written, with the default lease_duration', async () => {
    const { W, R } = setup();
    const data = { pssst: 'hi', nested: { list: [1, 'two', null], flag: true } };
    expect(await W('hvac/top-secret', data)).toEqual({ status: 204 });
    expect(await R('hvac/top-secret')).toEqual({ status: 200, body: { data, lease_duration: 2_764_800 } });
    expect(await W('hvac/top-secret', { other: 1 })).toEqual({ status: 204 });
    expect(await R('hvac/top-secret')).toEqual({
      status: 200,
      body: { data: { other: 1 }, lease_duration: 2_764_800 },
    });
  });

  it('a write takes every field as data: no "unrecognized parameters" warning, even for a field named path', async () => {
    const { W, R } = setup();
    expect(await W('k', { path: 'p', options: { cas: 1 }, data: 'x' })).toEqual({ status: 204 });
    expect((await R('k')).body).toMatchObject({ data: { path: 'p', options: { cas: 1 }, data: 'x' } });
  });

  it("lease_duration comes from the data's ttl (or lease) key, parsed as a duration; bad ones keep the default", async () => {
    const { W, R } = setup({ defaultLeaseTtl: 60 });
    const leaseOf = async (data: Record<string, unknown>) => {
      await W('t', data);
      return ((await R('t')).body as { lease_duration: number }).lease_duration;
    };
    expect(await leaseOf({ ttl: '1h' })).toBe(3600);
    expect(await leaseOf({ ttl: 90 })).toBe(90);
    expect(await leaseOf({ ttl: '45' })).toBe(45);
    expect(await leaseOf({ lease: '2m' })).toBe(120);
    expect(await leaseOf({ ttl: '1m', lease: '2m' })).toBe(60);
    expect(await leaseOf({ ttl: 'soon' })).toBe(60);
    expect(await leaseOf({ ttl: '-5s' })).toBe(60);
    expect(await leaseOf({ ttl: { a: 1 } })).toBe(60);
    expect(await leaseOf({ x: 1 })).toBe(60);
  });

  it('a missing key is a plain 404; so is a read of a folder path', async () => {
    const { W, R } = setup();
    expectPlain404(await R('no-secret-here'));
    await W('dir/key', { a: 1 });
    expectPlain404(await R('dir/'));
    expectPlain404(await R(''));
  });

  it('LIST answers keys with folders ending in "/", sorted; an empty or missing folder is a plain 404', async () => {
    const { W, LIST, handle } = setup();
    await W('hvac/top-secret', { a: 1 });
    await W('hvac/b/deeper', { a: 1 });
    await W('hvac', { a: 1 });
    await W('other', { a: 1 });
    expect(await LIST('hvac')).toEqual({ status: 200, body: { data: { keys: ['b/', 'top-secret'] } } });
    expect(await LIST('hvac/')).toEqual({ status: 200, body: { data: { keys: ['b/', 'top-secret'] } } });
    expect(await LIST('')).toEqual({ status: 200, body: { data: { keys: ['hvac', 'hvac/', 'other'] } } });
    expect(await handle({ method: 'GET', path: 'hvac', query: { list: 'true' } })).toEqual(await LIST('hvac/'));
    expectPlain404(await LIST('nothing'));
  });

  it('LIST pages with after and limit', async () => {
    const { W, LIST } = setup();
    for (const name of ['a', 'b', 'c', 'd']) await W(`f/${name}`, { v: name });
    expect(await LIST('f', { limit: '2' })).toEqual({ status: 200, body: { data: { keys: ['a', 'b'] } } });
    expect(await LIST('f', { after: 'b', limit: '2' })).toEqual({ status: 200, body: { data: { keys: ['c', 'd'] } } });
    expectError(await LIST('f', { limit: 'many' }), 400, 'limit');
  });

  it('DELETE removes the key for good (204), and a missing key deletes fine (204)', async () => {
    const { W, R, DEL, LIST } = setup();
    await W('hvac/top-secret', { a: 1 });
    expect(await DEL('hvac/top-secret')).toEqual({ status: 204 });
    expectPlain404(await R('hvac/top-secret'));
    expectPlain404(await LIST('hvac'));
    expect(await DEL('hvac/no-secret-here')).toEqual({ status: 204 });
  });

  it('refuses bad input with a clear 400', async () => {
    const { W, handle } = setup({ maxValueBytes: 64 });
    expectError(await W('k', {}), 400, 'missing data fields');
    expectError(await W('', { a: 1 }), 400, 'missing path');
    expectError(await W('dir/', { a: 1 }), 400, "a key does not end in '/'");
    expectError(await W('k', [1, 2]), 400, 'JSON object');
    expectError(await W('k', 'text'), 400, 'JSON object');
    expectError(await W('k', { big: 'x'.repeat(100) }), 400, 'larger than the limit of 64 bytes');
    expectError(await W('a/../b', { a: 1 }), 400, "'.' and '..'");
    expectError(await W('a//b', { a: 1 }), 400, 'empty path segment');
    let deep: unknown = 1;
    for (let level = 0; level < 200; level++) deep = { d: deep };
    expect((await W('k', { deep })).status).toBe(400);
    expect((await handle({ method: 'PATCH', path: 'k', body: { a: 1 } })).status).toBe(405);
  });

  it('asks create for a new key and update for an existing one, read, delete and list on the path itself', async () => {
    const kv = setup();
    const grants = policy('create:app/new', 'update:app/old', 'read:app/old', 'delete:app/old', 'list:app/');
    await kv.W('app/old', { a: 1 });
    const as = (request: EngineRequest) => kv.handle({ ...request, authorize: grants.authorize });
    expect((await as({ method: 'POST', path: 'app/new', body: { a: 1 } })).status).toBe(204);
    expect((await as({ method: 'POST', path: 'app/old', body: { a: 2 } })).status).toBe(204);
    expect((await as({ method: 'GET', path: 'app/old' })).status).toBe(200);
    expect((await as({ method: 'DELETE', path: 'app/old' })).status).toBe(204);
    expect((await as({ method: 'POST', path: 'app/other', body: { a: 1 } })).status).toBe(403);
    expect((await as({ method: 'GET', path: 'app/new' })).status).toBe(403);
    expect((await as({ method: 'LIST', path: 'other/' })).status).toBe(403);
  });

  it('a listing shows only the names the caller may see: a denied key or sub-folder is left out', async () => {
    const kv = setup();
    for (const path of ['app/a', 'app/hidden', 'app/sub/x', 'app/closed/y']) await kv.W(path, { a: 1 });
    const denied = new Set(['app/hidden', 'app/closed/']);
    const authorize = ({ capability, path }: { capability: string; path: string }) =>
      capability === 'list' && path.startsWith('app/') && !denied.has(path);
    const listed = await kv.handle({ method: 'LIST', path: 'app/', authorize });
    expect(listed).toEqual({ status: 200, body: { data: { keys: ['a', 'sub/'] } } });
  });
});

describe('KvV1Engine typed methods', () => {
  it('read, write, list and delete as the wire does, with typed errors', async () => {
    const { kv } = setup();
    await kv.write('app/db', { password: 'p' });
    await kv.write('app/nested/x', { a: 1 });
    expect(await kv.read('app/db')).toEqual({ password: 'p' });
    expect(await kv.list('app')).toEqual(['db', 'nested/']);
    expect(await kv.list('app/', { after: 'db' })).toEqual(['nested/']);
    expect(await kv.list('empty')).toEqual([]);
    await kv.delete('app/db');
    await expect(kv.read('app/db')).rejects.toBeInstanceOf(NotFound);
    await expect(kv.write('app/db', {})).rejects.toThrow('missing data fields');
    await expect(kv.write('app/', { a: 1 })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(kv.write('app/x', null as never)).rejects.toBeInstanceOf(InvalidRequest);
    await expect(kv.read('')).rejects.toBeInstanceOf(InvalidRequest);
  });

  it('refuses wrong options when built', () => {
    expect(() => new KvV1Engine({} as KvV1EngineOptions)).toThrow('KvV1Engine needs a storage');
    expect(() => new KvV1Engine({ storage: testStorage(), maxValueBytes: 0 })).toThrow('maxValueBytes');
    expect(() => new KvV1Engine({ storage: testStorage(), defaultLeaseTtl: -1 })).toThrow('defaultLeaseTtl');
    expect(() => new KvV1Engine({ storage: testStorage(), storagePrefix: '/x' })).toThrow('storagePrefix');
  });

  it('two engines on one storage keep apart by prefix, and share keys on the same prefix', async () => {
    const storage = testStorage();
    const one = new KvV1Engine({ storage, storagePrefix: 'one/' });
    const two = new KvV1Engine({ storage, storagePrefix: 'two/' });
    const again = new KvV1Engine({ storage, storagePrefix: 'one/' });
    await one.write('k', { v: 1 });
    await expect(two.read('k')).rejects.toBeInstanceOf(NotFound);
    expect(await again.read('k')).toEqual({ v: 1 });
  });
});
