import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { JsonStore, unchanged } from '../../src/core/store/stored-json.js';
import { InternalError } from '../../src/lib/errors.js';
import { DecodedMemo } from '../../src/lib/decoded-memo.js';
import { FaultyStorage, withoutCompareAndPut } from '../support/faulty-storage.js';
import { testStorage } from '../support/test-storage.js';

describe('JsonStore', () => {
  it('round-trips JSON documents', async () => {
    const store = new JsonStore(testStorage());
    await store.put('doc', { a: [1, 'two'] });
    expect(await store.get('doc')).toEqual({ a: [1, 'two'] });
    expect(await store.get('missing')).toBeUndefined();
  });

  it('reports a corrupt entry as an internal error without its contents', async () => {
    const storage = testStorage();
    await storage.put('bad', new TextEncoder().encode('{secret'));
    const error = await new JsonStore(storage).get('bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect(String((error as Error).message)).not.toContain('secret');
  });

  it('wraps storage failures as internal errors', async () => {
    const faulty = new FaultyStorage(new MemoryStorage());
    faulty.arm(1);
    await expect(new JsonStore(faulty).put('k', 1)).rejects.toBeInstanceOf(InternalError);
  });

  it('fails a storage that throws instead of rejecting the same way: a rejected promise, an internal error', async () => {
    const storage = testStorage();
    const throwing = Object.assign(Object.create(storage) as typeof storage, {
      get: () => {
        throw new Error('driver fault');
      },
    });
    const store = new JsonStore(throwing);
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = store.get('k'))).not.toThrow();
    const error = await pending!.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect((error as Error).message).toBe('storage read failed');
    expect(((error as Error).cause as Error).message).toBe('driver fault');
  });

  it('getMemoized reads every time and makes a value again only for other bytes', async () => {
    const storage = testStorage();
    const store = new JsonStore(storage);
    const memo = new DecodedMemo<{ n: number }>(8);
    let made = 0;
    const make = (stored: unknown) => (made++, { n: (stored as { n: number }).n });
    expect(await store.getMemoized('doc', memo, make)).toBeUndefined();
    await store.put('doc', { n: 1 });
    const first = await store.getMemoized('doc', memo, make);
    expect(await store.getMemoized('doc', memo, make)).toBe(first);
    expect(made).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    // Another writer (another process) changes the bytes: the very next read sees it.
    await new JsonStore(storage).put('doc', { n: 2 });
    expect(await store.getMemoized('doc', memo, make)).toEqual({ n: 2 });
    expect(made).toBe(2);
    await storage.put('doc', new TextEncoder().encode('{secret'));
    await expect(store.getMemoized('doc', memo, make)).rejects.toBeInstanceOf(InternalError);
  });

  it('update creates, changes, keeps and deletes', async () => {
    const store = new JsonStore(testStorage());
    expect((await store.update<number>('n', (n) => (n ?? 0) + 1)).next).toBe(1);
    expect((await store.update<number>('n', (n) => (n ?? 0) + 1)).next).toBe(2);
    expect((await store.update<number>('n', () => unchanged)).written).toBe(false);
    expect((await store.update<number>('n', () => undefined)).written).toBe(true);
    expect(await store.get('n')).toBeUndefined();
  });

  it('update stays exact with many concurrent writers through compareAndPut, across store instances', async () => {
    const storage = testStorage();
    const stores = [new JsonStore(storage), new JsonStore(storage)];
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (stores[i % 2] as JsonStore).update<number>('counter', async (n) => {
          await new Promise((resolve) => setImmediate(resolve));
          return (n ?? 0) + 1;
        }),
      ),
    );
    expect(await stores[0]?.get('counter')).toBe(50);
  });

  it('update falls back to plain puts on a storage without compareAndPut', async () => {
    const store = new JsonStore(withoutCompareAndPut(testStorage()));
    expect(store.atomic).toBe(false);
    await store.update<number>('n', () => 5);
    expect(await store.get('n')).toBe(5);
  });
});

describe('an update that removes a document', () => {
  it('removes it only if unchanged since it was read, where the storage has compareAndDelete, and re-runs otherwise', async () => {
    const storage = testStorage();
    const json = new JsonStore(storage);
    await json.put('doc', { expires: 1 });
    let attempts = 0;
    const result = await json.update<{ expires: number }>('doc', async (current) => {
      attempts += 1;
      // Another process renews the document between this read and the removal.
      if (attempts === 1) await storage.put('doc', new TextEncoder().encode(JSON.stringify({ expires: 9 })));
      return current && current.expires < 5 ? undefined : unchanged;
    });
    expect(attempts).toBe(2);
    expect(result.written).toBe(false);
    expect(await json.get('doc')).toEqual({ expires: 9 });
  });
});
