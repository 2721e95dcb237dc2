import { z } from 'zod';
import { checked, documentFormat, storedCount, storedTime, type Upgrade } from './document-format.js';

/**
 * A key's head record (StorageLayout.metadata): its commit point, with its settings, its inline version entries and
 * the short history of its changes. Times are epoch milliseconds (the clock's precision); they are formatted only on
 * the way out.
 */

/** What a committed change of a key did: the `operation` of its change event. */
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

/**
 * Who made a change, as Vault 1.21 records it (its Attribution) and answers it: the caller's display name, the
 * operation, and the caller's entity and client ids; each field is absent when empty, as Vault leaves it out.
 */
export const storedActor = z.object({
  actor: z.string().optional(),
  operation: z.string(),
  entity_id: z.string().optional(),
  client_id: z.string().optional(),
});
/** Who made a change, as stored and answered. */
export type StoredActor = z.infer<typeof storedActor>;

/** The entry of one version: inline in the head, or in its entry document (entry-document.ts). */
export const storedVersion = z.object({
  version: storedCount,
  created: storedTime,
  /** When the version is, or becomes, soft-deleted; absent when no deletion is scheduled. */
  deletion: storedTime.optional(),
  /**
   * When the version is, or becomes, destroyed by destroy_version_after (format 3 on); absent when none is scheduled. From
   * then on it reads as destroyed, whether or not the sweep has yet removed its data.
   */
  destruction: storedTime.optional(),
  destroyed: z.literal(true).optional(),
  /** Id of the blob that holds the version's data; absent once destroyed, and for data kept in the entry document. */
  blob: z.string().optional(),
  /** Who wrote the version (format 2 on); absent when unknown, as for every version written before. */
  created_by: storedActor.optional(),
  /** Who soft-deleted it, while it is deleted by a caller's request (a scheduled deletion has none). */
  deleted_by: storedActor.optional(),
});
/** A version's entry, as stored. */
export type StoredVersion = z.infer<typeof storedVersion>;

/**
 * One committed change of a key, as its head remembers it for change events. Any text is taken as an operation: one
 * that a later release added reaches listeners as it was recorded, rather than making the head unreadable.
 */
const storedChange = z.object({
  operation: z.custom<KvChangeOperation>((value) => typeof value === 'string'),
  version: storedCount,
  revision: storedCount,
  time: storedTime,
});
/** A change of a key, as its head records it. */
export type StoredChange = z.infer<typeof storedChange>;

/** The part of a head that `headHistory` checks. */
const storedHistory = z.object({ changes: z.array(storedChange).optional() });

const storedMetadata = z.object({
  created: storedTime,
  /** When the newest version was added (or the key created): metadata changes leave it alone, as in Vault. */
  updated: storedTime,
  current_version: storedCount,
  oldest_version: storedCount,
  /** Key-level settings; 0 means "use the engine's". */
  max_versions: storedCount,
  cas_required: z.boolean(),
  delete_version_after: z.number().int(),
  /** Seconds after its write that a version is destroyed; 0 means "use the engine's" (format 3 on). */
  destroy_version_after: storedCount,
  custom_metadata: z.record(z.string(), z.string()),
  /** Metadata writes and patches since the key was created (OpenBao's current_metadata_version); absent means 0. */
  metadata_version: storedCount.optional(),
  /** This key's metadata writes and patches must carry metadata_cas; absent means false. */
  metadata_cas_required: z.boolean().optional(),
  /** Who last wrote, patched, deleted or undeleted a version (format 2 on); absent when unknown. */
  last_updated_by: storedActor.optional(),
  /**
   * The latest changes of the key, oldest first, for change events (change-events.ts); absent before any. A head read
   * checks only that this is a list: each change is checked where it becomes an event (`headHistory`), because checking
   * a full history on every read doubles the cost of checking a head.
   */
  changes: z.custom<StoredChange[]>((value) => Array.isArray(value)).optional(),
  /** Counts the commits of this record, so that equal bytes always mean no commit happened in between. */
  revision: storedCount,
  /** The highest version ever written to an entry document (0: none); pruning retires documents only up to it. */
  spilled: storedCount,
  /**
   * Versions from this one on keep their data in their entry document (StoredEntry.data), written with the version,
   * instead of in a blob (absent: every version has a blob). Set, over a storage with atomic commits, by the first
   * write that leaves the key keeping more versions than its head holds inline; never cleared while the key exists.
   */
  documents_from: storedCount.optional(),
  /**
   * The inline entries, ascending and authoritative: always the newest version's, those the last change altered, and
   * (while the key keeps at most ten versions) the others; earlier releases kept the newest others up to ten in all.
   * Every other version from oldest_version (or 1) to current_version has an entry document; destroyed versions keep
   * their entry (without a blob), pruned ones are gone.
   */
  versions: z.array(storedVersion),
  /**
   * Blobs this record no longer references whose removal is not yet confirmed (pruned, destroyed). Every later change
   * of the key retries their removal before it commits, so a failed delete never leaves secret data behind for good.
   */
  garbage: z.array(z.string()),
  /**
   * Pruned versions whose entry documents (and the blobs they reference) are not yet confirmed removed; retried like
   * `garbage`.
   */
  retired: z.array(storedCount),
});
/** A key's head record, as stored. */
export type StoredMetadata = z.infer<typeof storedMetadata>;

/**
 * Format 1 to 2: the actors came (created_by, deleted_by, last_updated_by). A head of format 1 knows of none, which is
 * what its versions are answered with, so the step changes nothing; the new format keeps a release that predates the
 * actors from changing such a head, since its delete would leave deleted_by out and its undelete leave it behind.
 */
export const withActors: Upgrade = (older) => older;

/**
 * Format 2 to 3 (heads and the config alike): destroy_version_after came, and versions may carry a destruction time. A
 * document of format 2 has none set. The new format keeps a release that predates it from serving, or carrying into a
 * copy, a version past its destruction time.
 */
export const withDestroyLifetime: Upgrade = (older) => ({ ...older, destroy_version_after: 0 });

/**
 * How head records are read and written. Heads of the first layout, from before the key store counted revisions and
 * kept entry documents, lack the fields that came with those: they read as a head that has had neither.
 */
export const headFormat = documentFormat({
  shape: storedMetadata,
  upgrades: [withActors, withDestroyLifetime],
  defaults: { revision: 0, spilled: 0, garbage: [], retired: [] },
});

/** The changes a head records (`key`: where it is stored), each checked, for the events they give. */
export function headHistory(head: StoredMetadata, key: string): StoredChange[] {
  return checked(storedHistory, head, key).changes ?? [];
}
