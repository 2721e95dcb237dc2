import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { SqliteStorage } from '../../src/sqlite.js';
import { allKeys, kvProblems } from '../campaign/support/invariants.js';
import { withoutCommit } from '../support/faulty-storage.js';
import { type Call, PausedStorage } from '../support/paused-storage.js';

/**
 * A metadata delete in one engine racing a write in another, over one storage, interleaved step by step: the write is
 * either removed by the delete that finished after it was acknowledged, or readable; its data is never left behind.
 * Over one MemoryStorage, and over two SqliteStorage connections to one file (as two processes would have).
 */

const directory = mkdtempSync(join(tmpdir(), 'strongroom-kv-race-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

/** Two handles on one store: the first is also read directly by the checks. */
const backends: [string, () => [MemoryStorage | SqliteStorage, MemoryStorage | SqliteStorage]][] = [
  [
    'MemoryStorage',
    () => {
      const storage = new MemoryStorage();
      return [storage, storage];
    },
  ],
  [
    'two SqliteStorage connections on one file',
    () => {
      const path = join(directory, `race-${files++}.db`);
      return [new SqliteStorage({ path }), new SqliteStorage({ path })];
    },
  ],
];

const HEAD = 'kv/metadata/foo';

/** compareAndPut and compareAndDelete, but no atomic commits. */
function conditionalOnly(storage: MemoryStorage | SqliteStorage): Storage {
  return { ...withoutCommit(storage), compareAndDelete: (key, expected) => storage.compareAndDelete(key, expected) };
}

const variants: [string, (storage: MemoryStorage | SqliteStorage) => Storage, (call: Call) => boolean][] = [
  ['with atomic commits', (storage) => storage, (call) => call.name === 'commit' && call.keys.includes(HEAD)],
  [
    'with compareAndPut and compareAndDelete',
    conditionalOnly,
    (call) => call.name === 'compareAndDelete' && call.keys.includes(HEAD),
  ],
];

describe.each(backends)('over %s', (_backend, open) => {
  function engines(variant: (storage: MemoryStorage | SqliteStorage) => Storage) {
    const [inner, other] = open();
    const first = new PausedStorage(variant(inner));
    const second = new PausedStorage(variant(other));
    const clock = new ManualClock('2026-03-01T12:00:00Z');
    // Each engine pauses on its own connection: the deleter on the first, the writer on the second.
    return {
      inner,
      deleter: first,
      writer: second,
      a: new KvEngine({ storage: first, clock }),
      b: new KvEngine({ storage: second, clock }),
    };
  }

  describe.each(variants)('a metadata delete racing a write in another engine, %s', (_name, variant, removal) => {
    it("a write acknowledged between the delete's last read and its removal is removed with the key, data and all", async () => {
      const { inner, deleter, a, b } = engines(variant);
      await a.write('foo', { v: 1 });
      await a.write('foo', { v: 2 });
      const held = deleter.pause(removal);
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
      const { inner, writer, a, b } = engines(variant);
      await a.write('foo', { v: 1 });
      const held = writer.pause(
        (call) => (call.name === 'commit' || call.name === 'compareAndPut') && call.keys.includes(HEAD),
      );
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
});
