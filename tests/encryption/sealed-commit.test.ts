import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EncryptedStorage, MemoryStorage, type StorageOperation } from '../../src/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/** Memory that keeps the operations of every commit as they were handed to it. */
class RecordingStorage extends MemoryStorage {
  readonly commits: StorageOperation[][] = [];

  override async commit(operations: readonly StorageOperation[]): Promise<boolean> {
    this.commits.push([...operations]);
    return super.commit(operations);
  }
}

/** Whether `needle` occurs anywhere in `haystack`. */
function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).includes(Buffer.from(needle));
}

describe('the values of one commit are sealed together', () => {
  it('into one allocation that holds only their ciphertexts, each opening alone under its own key', async () => {
    const inner = new RecordingStorage();
    const rootKey = randomBytes(32);
    const storage = new EncryptedStorage({ storage: inner, key: rootKey });
    const secrets = ['the first secret value', 'the second secret value', 'the third secret value'];
    await storage.put('gone', bytes('dropped by the commit'));
    expect(
      await storage.commit!([
        { type: 'put', key: 'a', value: bytes(secrets[0]!), expected: null },
        { type: 'delete', key: 'gone' },
        { type: 'put', key: 'b', value: bytes(secrets[1]!) },
        { type: 'put', key: 'c', value: bytes(secrets[2]!), expected: null },
      ]),
    ).toBe(true);

    const puts = inner.commits[0]!.filter((operation) => operation.type === 'put');
    expect(puts).toHaveLength(3);
    // One allocation for the commit's sealed values, none of them overlapping.
    const memory = puts[0]!.value.buffer;
    for (const { value } of puts) expect(value.buffer).toBe(memory);
    expect(memory.byteLength).toBe(puts.reduce((sum, { value }) => sum + value.byteLength, 0));
    // What the wrapped storage can reach through `.buffer` is ciphertext only.
    const whole = new Uint8Array(memory);
    for (const secret of secrets) expect(contains(whole, bytes(secret))).toBe(false);
    // A fresh nonce per value (bytes 5-16 of the sealed form).
    const nonces = new Set(puts.map(({ value }) => Buffer.from(value.subarray(5, 17)).toString('hex')));
    expect(nonces.size).toBe(3);

    // Another process, with no cache, opens each value; a value moved to another key does not open.
    const other = new EncryptedStorage({ storage: inner, key: rootKey });
    expect([text(await other.get('a')), text(await other.get('b')), text(await other.get('c'))]).toEqual(secrets);
    expect(await other.get('gone')).toBeUndefined();
    await inner.put('moved', (await inner.get('a'))!);
    await expect(other.get('moved')).rejects.toThrow(/failed authentication/);
  });

  it('keeps what was committed when the caller reuses its arrays afterwards', async () => {
    const storage = new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) });
    const value = bytes('before');
    expect(await storage.commit!([{ type: 'put', key: 'k', value, expected: null }])).toBe(true);
    value.set(bytes('AFTER!'));
    expect(text(await storage.get('k'))).toBe('before');
  });
});
