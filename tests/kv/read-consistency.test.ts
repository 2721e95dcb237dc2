import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { FaultyStorage } from '../support/faulty-storage.js';
import { testStorage } from '../support/test-storage.js';
import { dataOf, expectPlain404 } from './helpers.js';

/** A storage that runs `interlude` once, just before the first read of a version blob. */
function beforeFirstBlobRead(inner: Storage, interlude: () => Promise<void>): Storage {
  let pending = true;
  return {
    get: async (key) => {
      if (pending && key.startsWith('kv/versions/')) {
        pending = false;
        await interlude();
      }
      return inner.get(key);
    },
    put: (key, value) => inner.put(key, value),
    delete: (key) => inner.delete(key),
    list: (prefix) => inner.list(prefix),
    compareAndPut: (key, expected, value) => inner.compareAndPut?.(key, expected, value) ?? Promise.resolve(false),
  };
}

describe('reads', () => {
  /** A reader of key k (one version kept) whose first data read races with another process writing version 2. */
  async function readerRacingAPrune(): Promise<KvEngine> {
    const storage = testStorage();
    const other = new KvEngine({ storage });
    await other.handle({ method: 'POST', path: 'metadata/k', body: { max_versions: 1 } });
    await other.handle({ method: 'POST', path: 'data/k', body: { data: { v: 1 } } });
    return new KvEngine({
      storage: beforeFirstBlobRead(storage, async () => {
        await other.handle({ method: 'POST', path: 'data/k', body: { data: { v: 2 } } });
      }),
    });
  }

  it('look again when another process prunes the version between the metadata and the data read', async () => {
    const reader = await readerRacingAPrune();
    expect(dataOf(await reader.handle({ method: 'GET', path: 'data/k' })).data).toEqual({ v: 2 });
  });

  it('answer 404∅ when the version asked for was pruned meanwhile', async () => {
    const reader = await readerRacingAPrune();
    expectPlain404(await reader.handle({ method: 'GET', path: 'data/k', query: { version: '1' } }));
  });

  it('of the latest version issue the data read beside the head read once the engine has seen the head', async () => {
    const inner = new MemoryStorage();
    let inFlight = 0;
    const together: number[] = [];
    const storage: Storage = {
      get: async (key) => {
        together.push(++inFlight);
        try {
          return await inner.get(key);
        } finally {
          inFlight--;
        }
      },
      put: (key, value) => inner.put(key, value),
      delete: (key) => inner.delete(key),
      list: (prefix) => inner.list(prefix),
      commit: (operations) => inner.commit(operations),
    };
    const kv = new KvEngine({ storage });
    await kv.handle({ method: 'POST', path: 'data/k', body: { data: { v: 1 } } });
    together.length = 0;
    expect(dataOf(await kv.handle({ method: 'GET', path: 'data/k' })).data).toEqual({ v: 1 });
    // Over a network database, reads issued together share one round trip (PostgresStorage batches them).
    expect(together).toEqual([1, 2]);
    together.length = 0;
    await kv.handle({ method: 'GET', path: 'data/k', query: { version: '1' } });
    expect(together).toEqual([1, 1]);
  });

  it.each([
    ['keeps the old version', {}],
    ['prunes the old version', { max_versions: 1 }],
  ])(
    'answer the newest data when another process wrote since this engine last saw the head (it %s)',
    async (_, config) => {
      const storage = testStorage();
      const reader = new KvEngine({ storage });
      const writer = new KvEngine({ storage });
      await reader.handle({ method: 'POST', path: 'metadata/k', body: config });
      await reader.handle({ method: 'POST', path: 'data/k', body: { data: { v: 1 } } });
      await writer.handle({ method: 'POST', path: 'data/k', body: { data: { v: 2 } } });
      expect(dataOf(await reader.handle({ method: 'GET', path: 'data/k' })).data).toEqual({ v: 2 });
      await writer.handle({ method: 'DELETE', path: 'data/k' });
      expect((await reader.handle({ method: 'GET', path: 'data/k' })).status).toBe(404);
    },
  );

  it('a record that keeps pointing at a missing blob is a server fault, reported but not shown', async () => {
    const storage = testStorage();
    const faults: unknown[] = [];
    const kv = new KvEngine({ storage, onInternalError: (error) => faults.push(error) });
    await kv.handle({ method: 'POST', path: 'data/k', body: { data: { secret: 'x' } } });
    for (const folder of await storage.list('kv/versions/')) {
      for (const blob of await storage.list(`kv/versions/${folder}`))
        await storage.delete(`kv/versions/${folder}${blob}`);
    }
    expect(await kv.handle({ method: 'GET', path: 'data/k' })).toEqual({
      status: 500,
      body: { errors: ['could not find version data'] },
    });
    expect(faults).toHaveLength(1);
  });

  it('a failing storage gives 500 without the cause, and reports the cause', async () => {
    const faulty = new FaultyStorage(new MemoryStorage());
    const faults: unknown[] = [];
    const kv = new KvEngine({ storage: faulty, onInternalError: (error) => faults.push(error) });
    await kv.handle({ method: 'POST', path: 'data/k', body: { data: { a: 1 } } });
    for (const [request, calls] of [
      [{ method: 'GET', path: 'data/k' }, 2],
      [{ method: 'GET', path: 'subkeys/k' }, 2],
      [{ method: 'GET', path: 'metadata/k' }, 1],
      [{ method: 'LIST', path: 'metadata/' }, 1],
      [{ method: 'GET', path: 'config' }, 1],
    ] as const) {
      for (let n = 1; n <= calls; n++) {
        faulty.arm(n);
        const response = await kv.handle(request);
        expect(response.status).toBe(500);
        expect(JSON.stringify(response)).not.toContain('injected');
      }
    }
    expect(faults.length).toBeGreaterThan(0);
    expect(String((faults[0] as Error).cause)).toContain('injected storage fault');
  });

  it('a corrupt record is a server fault that does not echo its contents', async () => {
    const storage = testStorage();
    const kv = new KvEngine({ storage });
    await storage.put('kv/metadata/k', new TextEncoder().encode('{"secret'));
    const response = await kv.handle({ method: 'GET', path: 'metadata/k' });
    expect(response.status).toBe(500);
    expect(JSON.stringify(response)).not.toContain('secret');
  });
});

describe('storagePrefix', () => {
  it('lets several engines share one storage without seeing each other', async () => {
    const storage = testStorage();
    const first = new KvEngine({ storage });
    const second = new KvEngine({ storage, storagePrefix: 'tenants/b/' });
    await first.handle({ method: 'POST', path: 'data/k', body: { data: { engine: 1 } } });
    await second.handle({ method: 'POST', path: 'data/k', body: { data: { engine: 2 } } });
    await second.handle({ method: 'POST', path: 'config', body: { max_versions: 2 } });
    expect(dataOf(await first.handle({ method: 'GET', path: 'data/k' })).data).toEqual({ engine: 1 });
    expect(dataOf(await second.handle({ method: 'GET', path: 'data/k' })).data).toEqual({ engine: 2 });
    expect(dataOf(await first.handle({ method: 'GET', path: 'config' })).max_versions).toBe(0);
    expect(await storage.list('')).toEqual(['kv/', 'tenants/']);
  });

  it('must end in a slash', () => {
    expect(() => new KvEngine({ storage: testStorage(), storagePrefix: 'kv' })).toThrow(/storagePrefix/);
  });
});
