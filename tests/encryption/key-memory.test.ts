import { getRandomValues } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Keyring } from '../../src/encryption/keyring.js';
import { StaticRootKey } from '../../src/encryption/static-root-key.js';

/** Whether `needle` occurs in the memory of Node's current shared Buffer pool (where small Buffers are cut from). */
function inSharedPool(needle: Uint8Array): boolean {
  const pool = Buffer.from('probe').buffer;
  return Buffer.from(pool).indexOf(Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength)) !== -1;
}

/** 32 random bytes in memory of their own (randomBytes would cut them from the pool itself). */
const ownKey = () => Buffer.from(getRandomValues(new Uint8Array(32)).buffer);

/** Key material decoded from base64 is wiped from the memory it was decoded into once a KeyObject holds it. */
describe('key material in memory', () => {
  it('a root key given in base64 leaves no copy in the shared Buffer pool', () => {
    const key = ownKey();
    expect(StaticRootKey.fromBase64(key.toString('base64'))).toBeInstanceOf(StaticRootKey);
    expect(inSharedPool(key)).toBe(false);
  });

  it("a keyring's term keys leave no copy in the shared Buffer pool", () => {
    const keys = [ownKey(), ownKey()];
    const keyring = new Keyring({
      active: 2,
      retired: [],
      terms: keys.map((key, index) => ({
        term: index + 1,
        key: key.toString('base64'),
        createdAt: new Date(0).toISOString(),
      })),
    });
    expect(keyring.terms).toEqual([1, 2]);
    for (const key of keys) expect(inSharedPool(key)).toBe(false);
  });
});
