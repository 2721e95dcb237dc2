import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EncryptedStorage, MemoryStorage, type StorageOperation } from '../../src/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/** Memory whose next conditional write first lets another writer act, between the barrier's read and its write. */
class RacingStorage extends MemoryStorage {
  private interleave: (() => Promise<void>) | undefined;
  conditionalWrites = 0;

  beforeNextConditionalWrite(action: () => Promise<void>): void {
    this.interleave = action;
  }

  private async race(): Promise<void> {
    this.conditionalWrites += 1;
    const action = this.interleave;
    this.interleave = undefined;
    await action?.();
  }

  override async compareAndPut(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean> {
    await this.race();
    return super.compareAndPut(key, expected, value);
  }

  override async compareAndDelete(key: string, expected: Uint8Array): Promise<boolean> {
    await this.race();
    return super.compareAndDelete(key, expected);
  }

  override async commit(operations: readonly StorageOperation[]): Promise<boolean> {
    await this.race();
    return super.commit(operations);
  }
}

function setup() {
  const inner = new RacingStorage();
  const rootKey = randomBytes(32);
  const storage = new EncryptedStorage({ storage: inner, key: rootKey });
  // Another process over the same storage: its writes re-seal (new nonce) even when the plaintext is the same.
  const other = new EncryptedStorage({ storage: inner, key: rootKey });
  return { inner, storage, other };
}

describe('conditional writes through the barrier compare plaintexts', () => {
  it('compareAndPut: equal plaintext succeeds although every ciphertext differs; other plaintext fails', async () => {
    const { storage } = setup();
    expect(await storage.compareAndPut!('k', undefined, bytes('a'))).toBe(true);
    expect(await storage.compareAndPut!('k', undefined, bytes('b'))).toBe(false);
    expect(await storage.compareAndPut!('k', bytes('x'), bytes('b'))).toBe(false);
    expect(await storage.compareAndPut!('k', bytes('a'), bytes('b'))).toBe(true);
    expect(text(await storage.get('k'))).toBe('b');
    expect(await storage.compareAndPut!('absent', bytes('a'), bytes('b'))).toBe(false);
    expect(await storage.get('absent')).toBeUndefined();
  });

  it('compareAndPut retries when a re-seal changed the ciphertext but not the plaintext', async () => {
    const { inner, storage, other } = setup();
    await storage.put('k', bytes('a'));
    inner.conditionalWrites = 0;
    inner.beforeNextConditionalWrite(() => other.put('k', bytes('a')));
    expect(await storage.compareAndPut!('k', bytes('a'), bytes('b'))).toBe(true);
    expect(inner.conditionalWrites).toBe(2);
    expect(text(await other.get('k'))).toBe('b');
  });

  it('compareAndPut fails when a concurrent writer changed the plaintext', async () => {
    const { inner, storage, other } = setup();
    await storage.put('k', bytes('a'));
    inner.beforeNextConditionalWrite(() => other.put('k', bytes('c')));
    expect(await storage.compareAndPut!('k', bytes('a'), bytes('b'))).toBe(false);
    expect(text(await storage.get('k'))).toBe('c');
  });

  it('compareAndPut of an absent key fails when another writer created it first', async () => {
    const { inner, storage, other } = setup();
    inner.beforeNextConditionalWrite(() => other.put('k', bytes('theirs')));
    expect(await storage.compareAndPut!('k', undefined, bytes('mine'))).toBe(false);
    expect(text(await storage.get('k'))).toBe('theirs');
  });

  it('compareAndDelete: by plaintext, retried over a re-seal, refused over a change', async () => {
    const { inner, storage, other } = setup();
    await storage.put('k', bytes('a'));
    expect(await storage.compareAndDelete!('k', bytes('z'))).toBe(false);
    inner.beforeNextConditionalWrite(() => other.put('k', bytes('a')));
    expect(await storage.compareAndDelete!('k', bytes('a'))).toBe(true);
    expect(await storage.get('k')).toBeUndefined();
    expect(await storage.compareAndDelete!('k', bytes('a'))).toBe(false);
    await storage.put('k', bytes('a'));
    inner.beforeNextConditionalWrite(() => other.put('k', bytes('c')));
    expect(await storage.compareAndDelete!('k', bytes('a'))).toBe(false);
    expect(text(await storage.get('k'))).toBe('c');
  });

  it('commit: all or nothing, conditions by plaintext (bytes, null, none), retried over a re-seal', async () => {
    const { inner, storage, other } = setup();
    await storage.put('a', bytes('1'));
    await storage.put('gone', bytes('x'));
    const operations: StorageOperation[] = [
      { type: 'put', key: 'a', value: bytes('2'), expected: bytes('1') },
      { type: 'put', key: 'new', value: bytes('n'), expected: null },
      { type: 'delete', key: 'gone', expected: bytes('x') },
      { type: 'put', key: 'free', value: bytes('f') },
    ];
    expect(
      await storage.commit!([
        ...operations.slice(0, 3),
        { type: 'put', key: 'b', value: bytes('v'), expected: bytes('nope') },
      ]),
    ).toBe(false);
    expect(text(await storage.get('a'))).toBe('1');
    expect(await storage.get('new')).toBeUndefined();

    inner.conditionalWrites = 0;
    inner.beforeNextConditionalWrite(() => other.put('a', bytes('1')));
    expect(await storage.commit!(operations)).toBe(true);
    expect(inner.conditionalWrites).toBe(2);
    expect([
      text(await storage.get('a')),
      text(await storage.get('new')),
      await storage.get('gone'),
      text(await storage.get('free')),
    ]).toEqual(['2', 'n', undefined, 'f']);
  });

  it('commit fails, writing nothing, when a key that must be absent appears meanwhile', async () => {
    const { inner, storage, other } = setup();
    inner.beforeNextConditionalWrite(() => other.put('new', bytes('theirs')));
    expect(
      await storage.commit!([
        { type: 'put', key: 'new', value: bytes('mine'), expected: null },
        { type: 'put', key: 'x', value: bytes('1') },
      ]),
    ).toBe(false);
    expect(text(await storage.get('new'))).toBe('theirs');
    expect(await storage.get('x')).toBeUndefined();
  });
});
