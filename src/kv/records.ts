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

export interface StoredMetadata {
  created: number;
  /** When the newest version was added (or the key created): metadata changes leave it alone, as in the reference. */
  updated: number;
  current_version: number;
  oldest_version: number;
  /** Key-level settings; 0 means "use the engine's". */
  max_versions: number;
  cas_required: boolean;
  delete_version_after: number;
  custom_metadata: Record<string, string>;
  /** Ascending by version number; pruned versions are gone, destroyed ones stay (without a blob). */
  versions: StoredVersion[];
  /**
   * Blobs this record no longer references whose removal is not yet confirmed (pruned, destroyed). Every later change
   * of the key retries their removal before it commits, so a failed delete never leaves secret data behind for good.
   */
  garbage: string[];
}
