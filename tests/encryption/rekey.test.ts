// EncryptedStorage.rekey(): the keyring sealed under a new root key, online. A process that opened the keyring with the
// old root key keeps reading, writing and rotating; a new process opens it with the new key only.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EncryptedStorage, MemoryStorage, StaticRootKey } from '../../src/index.js';
import type { RootKeyProvider } from '../../src/ports/root-key.js';

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes!).toString();

describe('EncryptedStorage.rekey', () => {
  it('seals the keyring under the new key; the old one stops opening it, a running process keeps serving', async () => {
    const inner = new MemoryStorage();
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const running = new EncryptedStorage({ storage: inner, key: oldKey });
    await running.put('a', Buffer.from('before'));
    const operator = new EncryptedStorage({ storage: inner, key: oldKey });
    await operator.rekey(newKey);

    await expect(new EncryptedStorage({ storage: inner, key: oldKey }).open()).rejects.toMatchObject({
      code: 'ERR_WRONG_ROOT_KEY',
    });
    const fresh = new EncryptedStorage({ storage: inner, key: newKey });
    expect(text(await fresh.get('a'))).toBe('before');

    // The running process, which only ever had the old root key, rotates and writes after the rekey.
    expect(await running.rotate()).toBe(2);
    await running.put('b', Buffer.from('after'));
    expect(text(await running.get('a'))).toBe('before');
    expect(text(await fresh.get('b'))).toBe('after');
    expect((await fresh.keyringStatus()).active).toBe(2);
    // Its rotation kept the keyring under the new key.
    await expect(new EncryptedStorage({ storage: inner, key: oldKey }).open()).rejects.toMatchObject({
      code: 'ERR_WRONG_ROOT_KEY',
    });
    expect(text(await new EncryptedStorage({ storage: inner, key: newKey }).get('b'))).toBe('after');
    // The operator's own instance now uses the new key too.
    expect(text(await operator.get('b'))).toBe('after');
  });

  it('writes nothing when the new root key does not give back what it wrapped', async () => {
    const inner = new MemoryStorage();
    const key = randomBytes(32);
    const storage = new EncryptedStorage({ storage: inner, key });
    await storage.open();
    const before = await inner.get('.encryption/keyring');
    const inner32 = new StaticRootKey(randomBytes(32));
    const broken: RootKeyProvider = {
      wrapKey: (bytes) => inner32.wrapKey(bytes),
      unwrapKey: async () => randomBytes(32),
    };
    await expect(storage.rekey(broken)).rejects.toThrow('does not unwrap what it wrapped');
    expect(await inner.get('.encryption/keyring')).toEqual(before);
    expect((await new EncryptedStorage({ storage: inner, key }).keyringStatus()).active).toBe(1);
  });

  it('refuses a key that is neither 32 bytes nor a provider, before anything is written', async () => {
    const storage = new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) });
    await expect(storage.rekey(randomBytes(16))).rejects.toThrow(TypeError);
    await expect(storage.rekey('text' as never)).rejects.toThrow('StaticRootKey.fromBase64');
  });
});
