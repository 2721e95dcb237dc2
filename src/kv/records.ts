/**
 * The records the engine keeps in storage. Times are epoch milliseconds (the clock's precision); they are formatted
 * only on the way out. These shapes are the storage format: change them only compatibly.
 */

export interface StoredConfig {
  /** 0 = unset (10 are kept). */
  max_versions: number;
  cas_required: boolean;
  /** Seconds; 0 = unset; negative (stored as -1) disables automatic deletion for the whole engine. */
  delete_version_after: number;
  /** Every metadata write and patch must carry metadata_cas; absent in records written before it existed. */
  metadata_cas_required?: boolean;
}

export interface StoredVersion {
  version: number;
  created: number;
  /** When the version is, or becomes, soft-deleted; absent when no deletion is scheduled. */
  deletion?: number;
  destroyed?: true;
  /** Id of the blob that holds the version's data; absent once destroyed. */
  blob?: string;
}

/**
 * A version's entry document, the authority for a version that is no longer inline in its key's head record. `write`
 * is a random id, fresh on every write of the document, so that a compareAndPut against bytes read earlier fails once
 * anyone wrote the document since, even with the same entry.
 */
export interface StoredEntry extends StoredVersion {
  write: string;
  /** When this document was written (epoch ms; absent on older documents): the orphan reclaim spares fresh ones. */
  written?: number;
  /**
   * The version's data, for versions from the head's `documents_from` on (absent once destroyed): such a version has
   * no blob, so a write of a key keeping many versions stores one document per version, not a blob and a document.
   */
  data?: Record<string, unknown>;
}

export type KvChangeOperation =
  | 'write'
  | 'patch'
  | 'delete'
  | 'undelete'
  | 'destroy'
  | 'metadata-write'
  | 'metadata-patch'
  | 'metadata-delete'
  /** The key was created by moving another key (with its history) here; the source's removal is a metadata-delete. */
  | 'move'
  /** The key was created as a copy of another key with its history. */
  | 'copy';

/** One committed change of a key, as its record remembers it for change events. */
export interface StoredChange {
  operation: KvChangeOperation;
  version: number;
  revision: number;
  /** Epoch milliseconds. */
  time: number;
}

/** A key's head record: its commit point. */
export interface StoredMetadata {
  created: number;
  /** When the newest version was added (or the key created): metadata changes leave it alone, as in Vault. */
  updated: number;
  current_version: number;
  oldest_version: number;
  /** Key-level settings; 0 means "use the engine's". */
  max_versions: number;
  cas_required: boolean;
  delete_version_after: number;
  custom_metadata: Record<string, string>;
  /** Metadata writes and patches since the key was created (OpenBao's current_metadata_version); absent means 0. */
  metadata_version?: number;
  /** This key's metadata writes and patches must carry metadata_cas; absent means false. */
  metadata_cas_required?: boolean;
  /** The latest changes of the key, oldest first, for change events (see change-events.ts); absent before any. */
  changes?: StoredChange[];
  /** Counts the commits of this record, so that equal bytes always mean no commit happened in between. */
  revision: number;
  /** The highest version ever written to an entry document (0: none); pruning retires documents only up to it. */
  spilled: number;
  /**
   * Versions from this one on keep their data in their entry document (StoredEntry.data), written with the version,
   * instead of in a blob (absent: every version has a blob). Set, over a storage with atomic commits, by the first
   * write that leaves the key keeping more versions than its head holds inline; never cleared while the key exists.
   */
  documents_from?: number;
  /**
   * The inline entries, ascending and authoritative: always the newest version's, those the last change altered, and
   * (while the key keeps at most ten versions) the others; earlier releases kept the newest others up to ten in all. Every other version from oldest_version (or 1) to current_version has an entry
   * document (StoredEntry); destroyed versions keep their entry (without a blob), pruned ones are gone.
   */
  versions: StoredVersion[];
  /**
   * Blobs this record no longer references whose removal is not yet confirmed (pruned, destroyed). Every later change
   * of the key retries their removal before it commits, so a failed delete never leaves secret data behind for good.
   */
  garbage: string[];
  /**
   * Pruned versions whose entry documents (and the blobs they reference) are not yet confirmed removed; retried like
   * `garbage`.
   */
  retired: number[];
}
