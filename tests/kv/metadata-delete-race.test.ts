import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/adapters/clocks.js';
import { MemoryStorage } from '../../src/adapters/memory-storage.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { allKeys, kvProblems } from '../campaign/support/invariants.js';
import { withoutCommit } from '../support/faulty-storage.js';
import { type Call, PausedStorage } from '../support/paused-storage.js';

/**
 * A metadata delete in one engine racing a write in another, over one storage, interleaved step by step: the write is
 * either removed by the delete that finished after it was acknowledged, or readable; its data is never left behind.
 */

const HEAD = 'kv/metadata/foo';

/** compareAndPut and compareAndDelete, but no atomic commits. */
function conditionalOnly(storage: MemoryStorage): Storage {
  return { ...withoutCommit(storage), compareAndDelete: (key, expected) => storage.compareAndDelete(key, expected) };
}

const variants: [string, (storage: MemoryStorage) => Storage, (call: Call) => boolean][] = [
  ['with atomic commits', (storage) => storage, (call) => call.name === 'commit' && call.keys.includes(HEAD)],
  ['with compareAndPut and compareAndDelete', conditionalOnly, (call) => call.name === 'compareAndDelete' && call.keys.includes(HEAD)],
];

function engines(variant: (storage: MemoryStorage) => Storage) {
  const inner = new MemoryStorage();
  const shared = new PausedStorage(variant(inner));
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  return { inner, shared, a: new KvEngine({ storage: shared, clock }), b: new KvEngine({ storage: shared, clock }) };
}

describe.each(variants)('a metadata delete racing a write in another engine, %s', (_name, variant, removal) => {
  it('a write acknowledged between the delete\'s last read and its removal is removed with the key, data and all', async () => {
    const { inner, shared, a, b } = engines(variant);
    await a.write('foo', { v: 1 });
    await a.write('foo', { v: 2 });
    const held = shared.pause(removal);
    const deleting = a.deleteMetadata('foo');
    await held.reached;
    const written = await b.write('foo', { v: 3 });
    held.resume();
    await deleting;
    expect(written.metadata.version).toBe(3);
    await expect(b.readMetadata('foo')).rejects.toThrow(/no key/);
    expect(await kvProblems(inner)).toEqual([]);
    expect(await allKeys(inner, 'kv/')).toEqual([]);
  });

  it('a write whose commit was held while the key was deleted lands on the fresh key and stays readable', async () => {
    const { inner, shared, a, b } = engines(variant);
    await a.write('foo', { v: 1 });
    const held = shared.pause((call) => (call.name === 'commit' || call.name === 'compareAndPut') && call.keys.includes(HEAD));
    const writing = b.write('foo', { v: 2 });
    await held.reached;
    await a.deleteMetadata('foo');
    held.resume();
    const written = await writing;
    expect(written.metadata.version).toBe(1);
    expect((await a.read('foo')).data).toEqual({ v: 2 });
    expect(await kvProblems(inner, { tidy: true })).toEqual([]);
  });
});
