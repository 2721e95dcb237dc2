import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EncryptedStorage, MemoryStorage } from '../../src/index.js';
import { withoutCompareAndPut } from '../support/faulty-storage.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

describe('EncryptedStorage', () => {
  it('round-trips values and never stores the plaintext', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    await storage.put('kv/a', bytes('s3cret-value'));
    expect(text(await storage.get('kv/a'))).toBe('s3cret-value');
    const stored = await inner.get('kv/a');
    expect(Buffer.from(stored!).includes('s3cret-value')).toBe(false);
    expect(stored![0]).toBe(1);
    expect(await storage.get('kv/missing')).toBeUndefined();
  });

  it('keeps what was written, not what callers do with their arrays afterwards (Buffers included)', async () => {
    const inner = new MemoryStorage();
    const key = randomBytes(32);
    const storage = new EncryptedStorage({ storage: inner, key });
    const written = Buffer.from('secret-1');
    await storage.put('k', written);
    written.write('XXXXXX');
    const read = (await storage.get('k'))!;
    expect(text(read)).toBe('secret-1');
    read[0] = 0x41;
    expect(text(await storage.get('k'))).toBe('secret-1');
    const committed = Buffer.from('secret-2');
    expect(await storage.commit!([{ type: 'put', key: 'k', value: committed, expected: bytes('secret-1') }])).toBe(true);
    committed.write('YYYYYY');
    expect(text(await storage.get('k'))).toBe('secret-2');
    // A reader without this process's cache opens the same.
    expect(text(await new EncryptedStorage({ storage: inner, key }).get('k'))).toBe('secret-2');
  });

  it('seals each write with a fresh nonce', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    await storage.put('k', bytes('same'));
    const first = await inner.get('k');
    await storage.put('k', bytes('same'));
    expect(Buffer.from((await inner.get('k'))!).equals(first!)).toBe(false);
  });

  it('hides its keyring from listings, paged ones included', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    await storage.put('a', bytes('1'));
    await storage.put('b/c', bytes('2'));
    await storage.rotate();
    await storage.rewrap();
    expect(await inner.list('')).toContain('.encryption/');
    expect(await storage.list('')).toEqual(['a', 'b/']);
    expect(await storage.listPage!('', { limit: 2 })).toEqual(['a', 'b/']);
    expect(await storage.listPage!('', { limit: 2, recursive: true })).toEqual(['a', 'b/c']);
    expect(await storage.listPage!('', { limit: 1, recursive: true, after: 'a' })).toEqual(['b/c']);
    expect(await storage.list('.encryption/')).toEqual([]);
    expect(await storage.listPage!('.encryption/', { limit: 10, recursive: true })).toEqual([]);
    await expect(storage.get('.encryption/keyring')).rejects.toThrow(/reserved/);
    await expect(storage.put('.encryption/keyring', bytes('x'))).rejects.toThrow(/reserved/);
  });

  it('offers exactly the optional members the wrapped storage has', () => {
    const full = new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) });
    for (const member of ['compareAndPut', 'compareAndDelete', 'commit', 'listPage'] as const) {
      expect(typeof full[member]).toBe('function');
    }
    const bare = new EncryptedStorage({ storage: withoutCompareAndPut(new MemoryStorage()), key: randomBytes(32) });
    for (const member of ['compareAndPut', 'compareAndDelete', 'commit', 'listPage']) expect(member in bare).toBe(false);
  });

  it('refuses a root key that is not 32 bytes', () => {
    expect(() => new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(16) })).toThrow(/32 bytes/);
  });
});
