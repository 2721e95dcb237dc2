import { describe, expect, it } from 'vitest';
import { blobTime, newBlobId, timedBlobId } from '../../src/kv/documents/storage-layout.js';

describe('blob ids', () => {
  it('are 128 random bits in hex, none repeated across many draws of the random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newBlobId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex digit turns up in every position: the bits are random, not a counter.
    for (let position = 0; position < 32; position += 7) expect(new Set(ids.map((id) => id[position])).size).toBe(16);
  });

  it('carry the time they were made, which the orphan reclaim reads back', () => {
    const time = Date.UTC(2026, 10, 25, 18, 30, 0, 123);
    const id = timedBlobId(time);
    expect(id).toMatch(/^[0-9a-f]{32}-[0-9a-z]+$/);
    expect(blobTime(id)).toBe(time);
    expect(blobTime(newBlobId())).toBeUndefined();
  });
});
