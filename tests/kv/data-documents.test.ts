import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage, StorageOperation } from '../../src/ports/storage.js';
import { kvProblems } from '../campaign/support/invariants.js';
import { testStorage } from '../support/test-storage.js';
import {
  blobCount,
  copyStorage,
  dataOf,
  entryDocumentVersions,
  expectError,
  MemoryStorageWithoutCommits,
  raceWritesWithChanges,
  setup,
  storedEntry,
  storedHead,
  withVersions,
} from './helpers.js';

/**
 * Over a storage with atomic commits, once a key keeps more than ten versions each new version keeps its data in its
 * entry document: a write stores that one document (no blob), and pruning removes one document without reading it.
 */

/** Records every read and every committed operation, by the kind of document. */
class RecordingStorage implements Storage {
  reads: string[] = [];
  committed: StorageOperation[] = [];
  private readonly inner = new MemoryStorage();

  get(key: string): Promise<Uint8Array | undefined> {
    this.reads.push(key);
    return this.inner.get(key);
  }

  commit(operations: readonly StorageOperation[]): Promise<boolean> {
    this.committed.push(...operations);
    return this.inner.commit(operations);
  }

  put = (key: string, value: Uint8Array) => this.inner.put(key, value);
  delete = (key: string) => this.inner.delete(key);
  list = (prefix: string) => this.inner.list(prefix);
  listPage: Storage['listPage'] = (prefix, options) => this.inner.listPage(prefix, options);
  compareAndPut: Storage['compareAndPut'] = (key, expected, value) => this.inner.compareAndPut(key, expected, value);
  compareAndDelete: Storage['compareAndDelete'] = (key, expected) => this.inner.compareAndDelete(key, expected);

  forget(): void {
    this.reads = [];
    this.committed = [];
  }
}

const kinds = (operations: StorageOperation[]) =>
  operations.map((operation) => `${operation.type} ${operation.key.split('/').slice(0, 2).join('/')}`).sort();

describe('data documents', () => {
  it('make a write of a deep key one document put and one document removal, with no blob and no document read', async () => {
    const storage = new RecordingStorage();
    const { W, R, MD } = await withVersions(12, storage);
    expect((await MD('doc', { max_versions: 12 })).status).toBe(204);
    for (let version = 13; version <= 30; version++) expect((await W('doc', { version })).status).toBe(200);
    expect((await storedHead(storage, 'doc')).documents_from).toBe(11);
    storage.forget();
    expect((await W('doc', { version: 31 })).status).toBe(200);
    expect(storage.reads.filter((key) => key.startsWith('kv/entries/') || key.startsWith('kv/versions/'))).toEqual([]);
    expect(kinds(storage.committed)).toEqual(['delete kv/entries', 'put kv/entries', 'put kv/metadata']);
    expect(storage.committed.find((operation) => operation.type === 'delete')?.key).toBe('kv/entries/doc/19');
    expect(await blobCount(storage)).toBe(0);
    expect(await storedEntry(storage, 'doc', 31)).toMatchObject({ version: 31, data: { version: 31 } });
    expect((await storedHead(storage, 'doc')).versions).toEqual([
      expect.not.objectContaining({ blob: expect.anything() }),
    ]);
    for (let version = 20; version <= 31; version++) expect(dataOf(await R('doc', version)).data).toEqual({ version });
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
  });

  it('are rewritten by a delete, undelete or destroy, and a destroy removes the data from them', async () => {
    const { storage, R, W, MR, DEL, PATCH, versions } = await withVersions(14);
    expect((await versions('destroy', 'doc', [12, 14])).status).toBe(204);
    for (const version of [12, 14]) {
      expect((await R('doc', version)).status).toBe(404);
      const entry = await storedEntry(storage, 'doc', version);
      expect(entry).toMatchObject({ version, destroyed: true });
      expect(entry).not.toHaveProperty('data');
    }
    expect((await versions('delete', 'doc', [13])).status).toBe(204);
    expect((await storedEntry(storage, 'doc', 13))?.deletion).toEqual(expect.any(Number));
    expect((await R('doc', 13)).status).toBe(404);
    expect((await versions('undelete', 'doc', [13])).status).toBe(204);
    expect(await storedEntry(storage, 'doc', 13)).not.toHaveProperty('deletion');
    expect(dataOf(await R('doc', 13)).data).toEqual({ version: 13 });
    expect((await W('doc', { version: 15 })).status).toBe(200);
    expect((await DEL('doc')).status).toBe(204);
    expect((await storedEntry(storage, 'doc', 15))?.deletion).toEqual(expect.any(Number));
    expect((await W('doc', { version: 16 })).status).toBe(200);
    expect((await PATCH('doc', { data: { patched: true } })).status).toBe(200);
    expect(dataOf(await R('doc')).data).toEqual({ version: 16, patched: true });
    expect((await storedHead(storage, 'doc')).versions.map((entry) => entry.version)).toEqual([17]);
    const meta = dataOf(await MR('doc'));
    expect([12, 14].map((version) => meta.versions[String(version)].destroyed)).toEqual([true, true]);
    expect(meta.versions['15'].deletion_time).not.toBe('');
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
  });

  it('stay in use when the key later keeps ten versions or fewer, and go with their pruned versions', async () => {
    const { storage, R, W, MD } = await withVersions(12);
    expect((await MD('doc', { max_versions: 3 })).status).toBe(204);
    for (let version = 13; version <= 14; version++) expect((await W('doc', { version })).status).toBe(200);
    expect(await entryDocumentVersions(storage, 'doc')).toEqual([12, 13, 14]);
    expect(await blobCount(storage)).toBe(0);
    for (let version = 12; version <= 14; version++) expect(dataOf(await R('doc', version)).data).toEqual({ version });
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
  });

  it('leave a key readable and removable, but not changeable, over a storage without atomic commits', async () => {
    const written = await withVersions(12);
    const storage = await copyStorage(written.storage, new MemoryStorageWithoutCommits());
    const { R, W, handle } = setup({ storage });
    for (let version = 1; version <= 12; version++) expect(dataOf(await R('doc', version)).data).toEqual({ version });
    expect((await W('doc', { version: 13 })).status).toBe(500);
    expect(dataOf(await R('doc')).data).toEqual({ version: 12 });
    expect((await handle({ method: 'DELETE', path: 'metadata/doc' })).status).toBe(204);
    expect(await storage.list('')).toEqual([]);
  });

  it('keep every change of their versions while another engine over the same storage writes', async () => {
    const storage = testStorage();
    let refused = 0;
    // Lets the other engine run before every storage call, so that the two interleave and their commits collide.
    const interleaved = (): Storage => {
      const pause = () => new Promise((resolve) => setImmediate(resolve));
      return {
        get: async (key) => (await pause(), storage.get(key)),
        put: async (key, value) => (await pause(), storage.put(key, value)),
        delete: async (key) => (await pause(), storage.delete(key)),
        list: async (prefix) => (await pause(), storage.list(prefix)),
        commit: async (operations) => {
          await pause();
          const done = await storage.commit(operations);
          if (!done) refused += 1;
          return done;
        },
      };
    };
    const [first, second] = [new KvEngine({ storage: interleaved() }), new KvEngine({ storage: interleaved() })];
    await first.handle({ method: 'POST', path: 'metadata/k', body: { max_versions: 100 } });
    for (let i = 1; i <= 20; i++) await first.handle({ method: 'POST', path: 'data/k', body: { data: { i } } });
    // Versions 11 to 20 keep their data in their documents: the race deletes and destroys only those.
    await raceWritesWithChanges(first, second, 11);
    expect(await kvProblems(storage)).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  });

  it('whose data is not an object read as a 500 naming the document, and the key can still be deleted', async () => {
    const { storage, R, handle } = await withVersions(12);
    const key = 'kv/entries/doc/12';
    const document = await storedEntry(storage, 'doc', 12);
    for (const corrupt of [{ ...document, data: 'text' }, null, ['a']]) {
      await storage.put(key, new TextEncoder().encode(JSON.stringify(corrupt)));
      expectError(await R('doc'), 500, `stored entry "${key}" is corrupt`);
    }
    expect((await handle({ method: 'DELETE', path: 'metadata/doc' })).status).toBe(204);
    expect(await storage.list('')).toEqual([]);
  });
});
