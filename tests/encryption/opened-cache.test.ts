import { describe, expect, it } from 'vitest';
import { OpenedCache } from '../../src/encryption/opened-cache.js';

const sealed = (length: number, fill: number) => new Uint8Array(length).fill(fill);

describe('OpenedCache budget', () => {
  it('counts all the memory a plaintext view keeps alive, not just the view', () => {
    // One commit's snapshots: a 10-byte plaintext and a 990-byte one in one 1,000-byte block.
    const block = new Uint8Array(1000);
    const small = new Uint8Array(block.buffer, 0, 10);
    const large = new Uint8Array(block.buffer, 10, 990);

    // The 10-byte view keeps 1,000 bytes alive: more than a sixteenth of a 10,000-byte budget, so it is not kept.
    const tight = new OpenedCache(10_000);
    const smallSealed = sealed(43, 1);
    tight.remember('small', smallSealed, small, 1);
    expect(tight.lookup('small', smallSealed)).toBeUndefined();

    // Within a larger budget each entry counts the whole block, so entries sharing one are evicted on that count.
    const cache = new OpenedCache(16 * 2000);
    cache.remember('small', smallSealed, small, 1);
    cache.remember('large', sealed(1023, 2), large, 1);
    expect(cache.lookup('small', smallSealed)?.plaintext).toBe(small);
    // 29 more entries of 1,010 bytes: 31,356 bytes by the views' lengths, within the budget; 32,356 counting the block
    // once per entry, over it, so the oldest unread entry goes.
    for (let index = 0; index < 29; index++) cache.remember(`other${index}`, sealed(10, 3), new Uint8Array(1000), 1);
    expect(cache.lookup('large', sealed(1023, 2))).toBeUndefined();
  });

  it('counts an array of its own by its length, as before', () => {
    // Exactly a sixteenth of the budget: kept.
    const cache = new OpenedCache(16 * 100);
    const plaintext = new Uint8Array(40);
    cache.remember('k', sealed(60, 1), plaintext, 1);
    expect(cache.lookup('k', sealed(60, 1))?.plaintext).toBe(plaintext);
  });
});
