import { describe, expect, it } from 'vitest';
import { JsonStore } from '../../src/core/store/stored-json.js';
import { EntryDocuments } from '../../src/kv/store/entry-documents.js';
import { kvEntryFolder, kvProblems } from '../campaign/support/invariants.js';
import { testStorage } from '../support/test-storage.js';
import {
  blobCount,
  copyStorage,
  dataOf,
  setup,
  entryDocumentVersions as entryDocuments,
  MemoryStorageWithoutCommits,
  storedHead as head,
  withVersions,
} from './helpers.js';

/**
 * A key keeping up to ten versions holds them all inline in its head record; a key keeping more holds only the newest
 * (and those its last change altered) inline and the others in entry documents, so its head record stays the size of a
 * one-version key's whatever the history.
 */

const INLINE = 10;

const decoder = new TextDecoder();

/**
 * A MemoryStorage whose blob deletions fail while `failing` is set, without atomic commits: over a storage with them,
 * removals are part of the change's commit and never fail on their own.
 */
class BlobDeletesFail extends MemoryStorageWithoutCommits {
  failing = false;
  override async delete(key: string): Promise<void> {
    if (this.failing && key.startsWith('kv/versions/')) throw new Error('injected blob delete failure');
    return super.delete(key);
  }
}

describe('entry documents', () => {
  it('are not written while a key keeps at most ten versions', async () => {
    const { storage } = await withVersions(INLINE);
    expect((await head(storage, 'doc')).versions.map((entry) => entry.version)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(await entryDocuments(storage, 'doc')).toEqual([]);
    expect(await kvProblems(storage)).toEqual([]);
  });

  it('keep only the newest entry inline once more than ten versions are kept, and serve reads of every older version', async () => {
    const { storage, R, MR } = await withVersions(14);
    expect((await head(storage, 'doc')).versions.map((entry) => entry.version)).toEqual([14]);
    // 1 to 10 were spilled when the eleventh arrived; 11 to 14 were written as data documents (data-documents.test.ts).
    expect(await entryDocuments(storage, 'doc')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    for (let version = 1; version <= 14; version++) expect(dataOf(await R('doc', version)).data).toEqual({ version });
    expect(Object.keys(dataOf(await MR('doc')).versions)).toHaveLength(14);
    expect(await kvProblems(storage)).toEqual([]);
  });

  it('bring changed versions inline at once, and spill them again on the next change', async () => {
    const { storage, R, W, MR, versions } = await withVersions(14);
    expect((await versions('delete', 'doc', [1, 3])).status).toBe(204);
    // The changed entries join the newest one inline.
    expect((await head(storage, 'doc')).versions.map((entry) => entry.version)).toEqual([1, 3, 14]);
    expect((await R('doc', 1)).status).toBe(404);
    expect((await versions('undelete', 'doc', [3])).status).toBe(204);
    expect(dataOf(await R('doc', 3)).data).toEqual({ version: 3 });
    expect((await W('doc', { version: 15 })).status).toBe(200);
    const inline = (await head(storage, 'doc')).versions.map((entry) => entry.version);
    expect(inline).toEqual([15]);
    expect(await entryDocuments(storage, 'doc')).toContain(1);
    const meta = dataOf(await MR('doc'));
    expect(meta.versions['1'].deletion_time).not.toBe('');
    expect(meta.versions['3'].deletion_time).toBe('');
    expect((await R('doc', 1)).status).toBe(404);
    expect(await kvProblems(storage)).toEqual([]);
  });

  it('prune spilled versions with their documents and data', async () => {
    const { storage, MD, W, MR, MP } = await withVersions(16);
    expect(await entryDocuments(storage, 'doc')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect((await MD('doc', { max_versions: 12 })).status).toBe(204);
    expect((await W('doc', { version: 17 })).status).toBe(200);
    expect(Object.keys(dataOf(await MR('doc')).versions)).toHaveLength(12);
    await MP('doc', {});
    expect(await entryDocuments(storage, 'doc')).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    // Versions 6 to 10 have blobs; 11 on keep their data in their documents.
    expect(await blobCount(storage)).toBe(5);
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
  });

  it('destroy a spilled version whose data removal fails, and finish the removal on the next change', async () => {
    const storage = new BlobDeletesFail();
    const { R, MP, versions } = await withVersions(12, storage);
    storage.failing = true;
    const destroyed = await versions('destroy', 'doc', [1]);
    expect(destroyed.status).toBe(200);
    expect((destroyed.body as { warnings: string[] }).warnings).toHaveLength(1);
    expect((await R('doc', 1)).status).toBe(404);
    expect(await blobCount(storage)).toBe(12);
    expect((await head(storage, 'doc')).garbage).toHaveLength(1);
    expect(await kvProblems(storage)).toEqual([]);
    storage.failing = false;
    expect((await MP('doc', {})).status).toBe(204);
    expect(await blobCount(storage)).toBe(11);
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
  });

  it('remove every document with the key', async () => {
    const { storage, handle } = await withVersions(14);
    expect((await handle({ method: 'DELETE', path: 'metadata/doc' })).status).toBe(204);
    expect(await storage.list('')).toEqual([]);
  });
});

describe('a spill', () => {
  const entry = { version: 1, created: 1, blob: 'a'.repeat(32) };
  const folder = kvEntryFolder('kv/', 'doc');

  it('never overwrites a document once the head it read has changed', async () => {
    const storage = testStorage();
    const documents = new EntryDocuments(new JsonStore(storage));
    const key = `${folder}1`;
    const newer = new TextEncoder().encode(JSON.stringify({ ...entry, deletion: 5, write: 'x' }));
    await storage.put(key, newer);
    await documents.spill(folder, entry, 1, async () => false);
    expect(await storage.get(key)).toEqual(newer);
  });

  it('replaces a leftover of an earlier attempt while the head still holds the entry inline', async () => {
    const storage = testStorage();
    const documents = new EntryDocuments(new JsonStore(storage));
    await storage.put(`${folder}1`, new TextEncoder().encode(JSON.stringify({ ...entry, deletion: 5, write: 'x' })));
    await documents.spill(folder, entry, 1, async () => true);
    expect(await documents.read(folder, 1)).toEqual(entry);
  });
});

describe('a key written by an earlier release', () => {
  // Those releases wrote every version's data to a blob, as the engine still does over a storage without atomic
  // commits: such a storage yields exactly their layout, which is then used over one with atomic commits.
  async function earlier(count: number) {
    const { storage } = await withVersions(count, new MemoryStorageWithoutCommits());
    expect((await head(storage, 'doc')).documents_from).toBeUndefined();
    return storage;
  }

  it('with the ten newest entries inline still serves every version, and the next write spills all but the newest', async () => {
    const written = await earlier(14);
    // The earliest layout: versions 5 to 14 inline, documents for 1 to 4 only.
    const key = 'kv/metadata/doc';
    const record = JSON.parse(decoder.decode(await written.get(key))) as { versions: unknown[]; spilled: number };
    const older: unknown[] = [];
    for (let version = 5; version <= 13; version++) {
      const document = `${kvEntryFolder('kv/', 'doc')}${version}`;
      const {
        write: _write,
        written: _written,
        ...entry
      } = JSON.parse(decoder.decode(await written.get(document))) as Record<string, unknown>;
      older.push(entry);
      await written.delete(document);
    }
    await written.put(
      key,
      new TextEncoder().encode(JSON.stringify({ ...record, versions: [...older, ...record.versions], spilled: 4 })),
    );
    const { storage, R, W, MR } = setup({ storage: await copyStorage(written) });
    expect(await entryDocuments(storage, 'doc')).toEqual([1, 2, 3, 4]);
    expect(await kvProblems(storage)).toEqual([]);
    for (let version = 1; version <= 14; version++) expect(dataOf(await R('doc', version)).data).toEqual({ version });
    expect((await W('doc', { version: 15 })).status).toBe(200);
    expect((await head(storage, 'doc')).versions.map((entry) => entry.version)).toEqual([15]);
    expect(await entryDocuments(storage, 'doc')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    for (let version = 1; version <= 15; version++) expect(dataOf(await R('doc', version)).data).toEqual({ version });
    expect(Object.keys(dataOf(await MR('doc')).versions)).toHaveLength(15);
    expect(await kvProblems(storage)).toEqual([]);
  });

  it('with the newest entry inline and a blob per version, keeps serving, changing and pruning every version', async () => {
    const { storage, R, W, MD, versions } = setup({ storage: await copyStorage(await earlier(14)) });
    expect(await blobCount(storage)).toBe(14);
    for (let version = 1; version <= 14; version++) expect(dataOf(await R('doc', version)).data).toEqual({ version });
    expect((await versions('destroy', 'doc', [2])).status).toBe(204);
    expect((await versions('delete', 'doc', [3])).status).toBe(204);
    expect((await MD('doc', { max_versions: 12 })).status).toBe(204);
    for (let version = 15; version <= 30; version++) expect((await W('doc', { version })).status).toBe(200);
    expect((await head(storage, 'doc')).documents_from).toBe(15);
    expect((await R('doc', 3)).status).toBe(404);
    for (let version = 19; version <= 30; version++) expect(dataOf(await R('doc', version)).data).toEqual({ version });
    expect(await entryDocuments(storage, 'doc')).toEqual([19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    // Every blob of the earlier layout went with its pruned version.
    expect(await blobCount(storage)).toBe(0);
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
  });
});
