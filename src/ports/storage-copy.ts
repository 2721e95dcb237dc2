/**
 * Whole-storage copies, for backups: a consistent snapshot of every stored entry, and a load of such a snapshot into a
 * storage that holds nothing yet. Entries are copied as stored: behind EncryptedStorage, still sealed.
 */

/** One stored entry, as the storage holds it. */
export interface StorageEntry {
  readonly key: string;
  readonly value: Uint8Array;
}

/** The copy side of a storage (its adapter's `...Copy`, or `MemoryStorage` itself). */
export interface StorageCopy {
  /**
   * Every entry, in key order, as of one instant: writes that other processes make while the snapshot is read are
   * either wholly in it (committed before it began) or not at all.
   */
  snapshot(): AsyncIterable<StorageEntry>;
  /**
   * Writes `entries` into the storage, all of them or none, provided it holds no entry at all; rejects with
   * `StorageNotEmpty` (from lib/errors; changing nothing) otherwise.
   */
  loadIntoEmpty(entries: readonly StorageEntry[]): Promise<void>;
}
