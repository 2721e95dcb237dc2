import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compareKeys,
  EncryptedStorage,
  KvEngine,
  MemoryStorage,
  SealedValueInvalid,
  type Storage,
} from '../../src/index.js';
import { SqliteStorage } from '../../src/adapters/storage/sqlite/sqlite-storage.js';
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
    expect(await storage.commit!([{ type: 'put', key: 'k', value: committed, expected: bytes('secret-1') }])).toBe(
      true,
    );
    committed.write('YYYYYY');
    expect(text(await storage.get('k'))).toBe('secret-2');
    // A reader without this process's cache opens the same.
    expect(text(await new EncryptedStorage({ storage: inner, key }).get('k'))).toBe('secret-2');
  });

  it('a commit of several puts keeps each value as passed, apart from the others and from what callers do next', async () => {
    const inner = new MemoryStorage();
    const key = randomBytes(32);
    const storage = new EncryptedStorage({ storage: inner, key });
    await storage.put('gone', bytes('old'));
    // Views into one caller block, as a caller's pooled Buffers may be, around a delete and an empty value.
    const block = Buffer.from('first|second-value|third');
    const operations = [
      { type: 'put' as const, key: 'a', value: block.subarray(0, 5), expected: null },
      { type: 'delete' as const, key: 'gone' },
      { type: 'put' as const, key: 'empty', value: new Uint8Array(0) },
      { type: 'put' as const, key: 'b', value: block.subarray(6, 18) },
      { type: 'put' as const, key: 'c', value: block.subarray(19) },
    ];
    expect(await storage.commit!(operations)).toBe(true);
    block.fill(0x58);
    const expected = { a: 'first', empty: '', b: 'second-value', c: 'third' };
    for (const [name, value] of Object.entries(expected)) {
      const read = (await storage.get(name))!;
      expect(text(read)).toBe(value);
      // Overwriting what a read answered, whole memory included, changes no other value.
      new Uint8Array(read.buffer).fill(0x59);
    }
    for (const [name, value] of Object.entries(expected)) expect(text(await storage.get(name))).toBe(value);
    expect(await storage.get('gone')).toBeUndefined();
    const fresh = new EncryptedStorage({ storage: inner, key });
    for (const [name, value] of Object.entries(expected)) expect(text(await fresh.get(name))).toBe(value);
    for (const name of ['a', 'b', 'c'] as const)
      expect(Buffer.from((await inner.get(name))!).includes(expected[name])).toBe(false);
  });

  it('answers reads in memory of their own, never in memory the wrapped storage shares with other values', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    await storage.put('k', bytes('secret-1'));
    // A value remembered from the write: its copy may go into the array the wrapped storage answered.
    const first = (await storage.get('k'))!;
    expect(text(first)).toBe('secret-1');
    expect([...new Uint8Array(first.buffer)].slice(first.byteLength).every((byte) => byte === 0)).toBe(true);
    new Uint8Array(first.buffer).fill(0x41);
    expect(text(await storage.get('k'))).toBe('secret-1');

    // A storage answering views into one shared block (as a driver's pooled Buffers may be): that block stays as it was.
    const shared = new Uint8Array(4096).fill(7);
    const backing = new MemoryStorage();
    const pooled: MemoryStorage = Object.create(backing);
    pooled.get = async (key) => {
      const value = await backing.get(key);
      if (value === undefined) return undefined;
      shared.set(value, 100);
      return shared.subarray(100, 100 + value.length);
    };
    const reader = new EncryptedStorage({ storage: pooled, key: randomBytes(32) });
    await reader.put('p', bytes('secret-2'));
    const read = (await reader.get('p'))!;
    expect(text(read)).toBe('secret-2');
    expect(read.buffer).not.toBe(shared.buffer);
    const sealed = (await backing.get('p'))!;
    expect(shared.subarray(100, 100 + sealed.length)).toEqual(sealed);
  });

  it('opens values stored by earlier versions, under ASCII and non-ASCII keys alike', async () => {
    // Written by the first release with the root key 0x11 x 32; the additional data is the header and the UTF-8 key.
    const stored: Record<string, string> = {
      '.encryption/keyring':
        'AEEBAAAAAPZEHL68RAkQLOSou0+PRQN7FEukTbHcTDw9A1vVnQ5eSfHSlLZ5uTL4jR6Q9LecXuopADxBTUJjptfurAEAAAAAE28updaQlOMC6GyDt6pshLPlcZpjfZU++UMQos4JBCYD/ivzSw+6USgVi9IJwqYmtp1XVq+4GpygWaxjNG+qdquYbxKlt3I2hKXa8ukhrR8zklGmIUX7J90zeSYqAHRoA6QfDEcFE+pk3Rgr0Z1FW5JKmftywBIRYrYrWaULUFDN632kSkJRxL9KpB6Qi8QUfA/tBodQX6/ifJqb8TiLHJCnHgvmiQ==',
      'kv/ascii': 'AQAAAAEZMHSgkcHh/lxQRjhpTmEmglq0XmUY4R6kJBY0mQHGho8NPw==',
      'kv/ключ/🔑': 'AQAAAAF1IQOJLRBvhkVNtA0AQw1gIwrJxlGfR7bxu/Hr5i2zcUTSUw==',
    };
    const inner = new MemoryStorage();
    for (const [key, value] of Object.entries(stored)) await inner.put(key, Buffer.from(value, 'base64'));
    const storage = new EncryptedStorage({ storage: inner, key: new Uint8Array(32).fill(0x11) });
    expect(text(await storage.get('kv/ascii'))).toBe('value-1');
    expect(text(await storage.get('kv/ключ/🔑'))).toBe('value-2');
    // What this version seals under a non-ASCII key opens there, and nowhere else.
    await storage.put('kv/ключ/🗝', bytes('value-3'));
    const fresh = new EncryptedStorage({ storage: inner, key: new Uint8Array(32).fill(0x11) });
    expect(text(await fresh.get('kv/ключ/🗝'))).toBe('value-3');
    await inner.put('kv/ключ/🔒', (await inner.get('kv/ключ/🗝'))!);
    await expect(fresh.get('kv/ключ/🔒')).rejects.toThrow(SealedValueInvalid);
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
    for (const member of ['compareAndPut', 'compareAndDelete', 'commit', 'listPage'])
      expect(member in bare).toBe(false);
  });

  it('never writes a plaintext over an array a storage keeps: an adapter answering its stored bytes, not a copy', async () => {
    // A common hand-written adapter: it stores a copy, then answers that same array on every read.
    class KeepsItsArrays implements Storage {
      readonly values = new Map<string, Uint8Array>();
      async get(key: string) {
        return this.values.get(key);
      }
      async put(key: string, value: Uint8Array) {
        this.values.set(key, value.slice());
      }
      async delete(key: string) {
        this.values.delete(key);
      }
      async list(prefix: string) {
        return [...this.values.keys()]
          .filter((key) => key.startsWith(prefix))
          .map((key) => key.slice(prefix.length))
          .sort(compareKeys);
      }
    }
    const inner = new KeepsItsArrays();
    const kv = new KvEngine({ storage: new EncryptedStorage({ storage: inner, key: randomBytes(32) }) });
    await kv.write('app/db', { password: 'canary-plaintext' });
    for (let read = 0; read < 3; read++)
      expect((await kv.read('app/db')).data).toEqual({ password: 'canary-plaintext' });
    for (const value of inner.values.values()) expect(text(value)).not.toContain('canary-plaintext');
  });

  it('refuses options it cannot work with at construction, naming them, rather than at open() with a TypeError from inside', () => {
    const storage = new MemoryStorage();
    const key = randomBytes(32);
    const refused: Array<[unknown, string]> = [
      [undefined, 'EncryptedStorage needs a storage to wrap'],
      [{ key }, 'EncryptedStorage needs a storage to wrap'],
      [
        { storage },
        'EncryptedStorage needs a key: 32 bytes (a Uint8Array) or a root key provider (wrapKey and unwrapKey)',
      ],
      // The usual slip: base64 text straight from the environment.
      [
        { storage, key: key.toString('base64') },
        'EncryptedStorage needs a key: 32 bytes (a Uint8Array) or a root key provider (wrapKey and unwrapKey); for base64 text, use StaticRootKey.fromBase64(text)',
      ],
      [{ storage, key, cacheBytes: -1 }, 'cacheBytes must be a number of bytes, 0 or more'],
      [{ storage, key, cacheBytes: Number.NaN }, 'cacheBytes must be a number of bytes, 0 or more'],
    ];
    for (const [options, message] of refused) {
      expect(() => new EncryptedStorage(options as ConstructorParameters<typeof EncryptedStorage>[0])).toThrow(
        new TypeError(message),
      );
    }
  });

  it('refuses a root key that is not 32 bytes', () => {
    expect(() => new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(16) })).toThrow(/32 bytes/);
  });
});

describe('EncryptedStorage.close()', () => {
  it('closes the storage it wraps: a SQLite file is released and later operations reject', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-encrypted-close-'));
    const path = join(dir, 'closed.db');
    const key = randomBytes(32);
    const storage = new EncryptedStorage({ storage: new SqliteStorage({ path }), key });
    await storage.put('kv/a', bytes('kept'));
    await storage.close();
    await expect(storage.get('kv/b')).rejects.toThrow('SqliteStorage is closed');
    const reopened = new EncryptedStorage({ storage: new SqliteStorage({ path }), key });
    expect(text(await reopened.get('kv/a'))).toBe('kept');
    await reopened.close();
  });

  it('resolves over a storage that has nothing to close', async () => {
    const storage = new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) });
    await storage.put('kv/a', bytes('v'));
    await expect(storage.close()).resolves.toBeUndefined();
  });
});
