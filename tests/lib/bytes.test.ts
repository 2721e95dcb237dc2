import { describe, expect, it } from 'vitest';
import { sameBytes } from '../../src/lib/bytes.js';

describe('sameBytes', () => {
  it('compares the bytes a view shows, not the memory behind it', () => {
    const backing = Uint8Array.from([9, 1, 2, 3, 9]);
    expect(sameBytes(backing.subarray(1, 4), Uint8Array.from([1, 2, 3]))).toBe(true);
    expect(sameBytes(backing.subarray(1, 4), Uint8Array.from([1, 2, 4]))).toBe(false);
    expect(sameBytes(backing.subarray(1, 4), Uint8Array.from([1, 2]))).toBe(false);
    expect(sameBytes(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });
});
