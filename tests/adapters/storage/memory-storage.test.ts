import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

describe('MemoryStorage', () => {
  it('stores, reads and deletes; deleting a missing key is not an error', async () => {
    const storage = new MemoryStorage();
    await storage.put('a/b', bytes('1'));
    expect(text(await storage.get('a/b'))).toBe('1');
    await storage.delete('a/b');
    await storage.delete('a/b');
    expect(await storage.get('a/b')).toBeUndefined();
  });

  it('copies values in and out', async () => {
    const storage = new MemoryStorage();
    const value = bytes('abc');
    await storage.put('k', value);
    value[0] = 0;
    const read = (await storage.get('k')) as Uint8Array;
    read[1] = 0;
    expect(text(await storage.get('k'))).toBe('abc');
  });

  it('lists direct children, folders with a trailing slash, sorted', async () => {
    const storage = new MemoryStorage();
    for (const key of ['b', 'a/x', 'a/y/z', 'c/d', 'a/w']) await storage.put(key, bytes(''));
    expect(await storage.list('')).toEqual(['a/', 'b', 'c/']);
    expect(await storage.list('a/')).toEqual(['w', 'x', 'y/']);
    expect(await storage.list('a/y/')).toEqual(['z']);
    expect(await storage.list('missing/')).toEqual([]);
  });

  it('forgets folders whose last key is deleted', async () => {
    const storage = new MemoryStorage();
    await storage.put('a/b/c', bytes(''));
    await storage.put('a/d', bytes(''));
    await storage.delete('a/b/c');
    expect(await storage.list('a/')).toEqual(['d']);
    await storage.delete('a/d');
    expect(await storage.list('')).toEqual([]);
    expect(storage.size).toBe(0);
  });

  it('keeps a folder and a leaf of the same name apart', async () => {
    const storage = new MemoryStorage();
    await storage.put('a', bytes('leaf'));
    await storage.put('a/b', bytes('child'));
    expect(await storage.list('')).toEqual(['a', 'a/']);
    await storage.delete('a');
    expect(await storage.list('')).toEqual(['a/']);
  });

  it('compareAndPut replaces only the expected value', async () => {
    const storage = new MemoryStorage();
    expect(await storage.compareAndPut('k', bytes('x'), bytes('1'))).toBe(false);
    expect(await storage.compareAndPut('k', undefined, bytes('1'))).toBe(true);
    expect(await storage.compareAndPut('k', undefined, bytes('2'))).toBe(false);
    expect(await storage.compareAndPut('k', bytes('2'), bytes('3'))).toBe(false);
    expect(await storage.compareAndPut('k', bytes('1'), bytes('3'))).toBe(true);
    expect(text(await storage.get('k'))).toBe('3');
    expect(await storage.list('')).toEqual(['k']);
  });

  it('lists exactly what a naive model lists, whatever the operations', async () => {
    const segment = fc.constantFrom('a', 'b', 'c');
    const key = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
    const op = fc.record({ put: fc.boolean(), key });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const storage = new MemoryStorage();
        const model = new Set<string>();
        for (const { put, key: k } of ops) {
          if (put) {
            await storage.put(k, bytes(k));
            model.add(k);
          } else {
            await storage.delete(k);
            model.delete(k);
          }
        }
        for (const prefix of ['', 'a/', 'b/', 'a/b/', 'c/c/']) {
          const expected = new Set<string>();
          for (const k of model) {
            if (!k.startsWith(prefix)) continue;
            const rest = k.slice(prefix.length);
            const slash = rest.indexOf('/');
            expected.add(slash < 0 ? rest : rest.slice(0, slash + 1));
          }
          expect(await storage.list(prefix)).toEqual([...expected].sort());
        }
      }),
    );
  });
});
