import { InternalError } from '../core/errors.js';
import type { JsonStore } from '../core/stored-json.js';
import type { StoredEntry, StoredVersion } from './records.js';
import { newBlobId } from './storage-layout.js';

/**
 * The entry documents of versions that are no longer inline in their key's head record. Rules that keep them exact
 * across processes:
 * - a document is written only by a spill, and a spill only writes an entry that is inline (authoritative) in the head
 *   record the change read; the head then commits without it. While a version is inline, its document (if any) is a
 *   leftover that nothing reads;
 * - every write of a document has a fresh `write` id and goes through compareAndPut: first against "absent", else
 *   against the bytes just read, and only after checking that the head record is still the one the change read. So a
 *   slow writer holding an old head can never overwrite a document that a newer head made authoritative: any write in
 *   between changes the bytes, and any commit in between changes the head;
 * - documents of pruned versions are removed after the commit that pruned them (tracked in the head's `retired`,
 *   their blobs in its `garbage`).
 */

/** A read found a document gone that the head record it read relied on: another process changed the key since. */
export class StaleRead extends Error {}

const MAX_SPILL_ATTEMPTS = 64;

/** Write ids: a random prefix per process and a counter, unique across processes without a random draw per write. */
const WRITER = newBlobId();
let writes = 0;

function entryOf({ write: _write, ...entry }: StoredEntry): StoredVersion {
  return entry;
}

/** Every method takes the key's entry folder (StorageLayout.entries), worked out once per operation. */
export class EntryDocuments {
  constructor(private readonly json: JsonStore) {}

  /** The entry of a version whose document is authoritative; a missing document means the head read is stale. */
  async read(folder: string, version: number): Promise<StoredVersion> {
    const stored = await this.json.get<StoredEntry>(`${folder}${version}`);
    if (stored === undefined) throw new StaleRead();
    return entryOf(stored);
  }

  /** Like `read`, but a missing document counts as destroyed: for a key being deleted, which removes the documents. */
  async readForRemoval(folder: string, version: number): Promise<StoredVersion> {
    const stored = await this.json.get<StoredEntry>(`${folder}${version}`);
    return stored === undefined ? { version, created: 0, destroyed: true } : entryOf(stored);
  }

  /**
   * Writes an inline entry to its document before the head commits without it. Returns without writing when the head
   * changed meanwhile: the head's compareAndPut then fails and the change runs again on the fresh head.
   */
  async spill(folder: string, entry: StoredVersion, headUnchanged: () => Promise<boolean>): Promise<void> {
    const key = `${folder}${entry.version}`;
    const document: StoredEntry = { ...entry, write: `${WRITER}.${(writes += 1)}` };
    for (let attempt = 0; attempt < MAX_SPILL_ATTEMPTS; attempt++) {
      if (await this.json.putIfUnchanged(key, undefined, document)) return;
      const found = await this.json.getRaw(key);
      if (found === undefined) continue;
      if (!(await headUnchanged())) return;
      if (await this.json.putIfUnchanged(key, found, document)) return;
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
  }

  /** Removes the documents of pruned versions (their blobs go as garbage); answers the versions whose removal failed. */
  retire(folder: string, versions: readonly number[]): Promise<number[]> {
    return this.json.deleteEach(versions, (version) => `${folder}${version}`);
  }

  /** Removes the documents of versions up to `through` (newer ones belong to writes that raced a key's deletion). */
  async removeThrough(folder: string, through: number): Promise<void> {
    const names = await this.json.list(folder);
    const doomed = names.map(Number).filter((version) => Number.isSafeInteger(version) && version <= through);
    await Promise.all(doomed.map((version) => this.json.delete(`${folder}${version}`)));
  }
}
