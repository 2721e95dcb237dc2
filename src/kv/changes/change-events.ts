import { formatTimestamp } from '../../lib/time.js';
import {
  headHistory,
  type KvChangeOperation,
  type StoredChange,
  type StoredMetadata,
} from '../documents/head-document.js';

/**
 * Change events: one per committed mutation of a key. Each change is also recorded in the key's head record, in the
 * same commit, as a short history (the last HISTORY changes), so that a process that learns late of a change (another
 * process made it, or a notification was lost) can still deliver every event in order.
 */

/** One committed change of a key, as listeners receive it. */
export interface KvChangeEvent {
  /** The key path, as written after `data/`. */
  path: string;
  operation: KvChangeOperation;
  /** The key's current version after the change (0 for a key with metadata only). */
  version: number;
  /**
   * Increases with every commit of the key's record, so events of one key are ordered by it (it may skip numbers:
   * housekeeping commits count too). A key created again after a metadata-delete starts afresh.
   */
  revision: number;
  /** RFC 3339 UTC. */
  time: string;
}

/** A key's recorded changes, as `KvEngine.recordedChanges` answers them. */
export interface KvRecordedChanges {
  /**
   * When the key was created (RFC 3339 UTC): a key created again after a metadata delete starts its revisions afresh,
   * and this tells its new life from the old one.
   */
  created: string;
  /** Its latest changes, oldest first (the last HISTORY). */
  changes: KvChangeEvent[];
}

/** How many of a key's latest changes its record keeps for late readers. */
export const HISTORY = 16;

/**
 * A committed change of a key as the feed handles it: its time stays epoch milliseconds until a listener gets the
 * event, so that a change nobody listens to formats no time.
 */
export interface KeyChange extends StoredChange {
  path: string;
}

/** A change of the key at `path`, as the feed handles it. */
export function keyChange(path: string, change: StoredChange): KeyChange {
  return { path, operation: change.operation, version: change.version, revision: change.revision, time: change.time };
}

/** The event listeners receive for a change: its time formatted, now that someone listens. */
export function eventOf(change: KeyChange): KvChangeEvent {
  return {
    path: change.path,
    operation: change.operation,
    version: change.version,
    revision: change.revision,
    time: formatTimestamp(change.time),
  };
}

/** The changes of the key at `path` that its head (stored under `key`) remembers, oldest first. */
export function changesOf(path: string, head: StoredMetadata, key: string): KeyChange[] {
  return headHistory(head, key).map((change) => keyChange(path, change));
}

/** The change of a key's removal: one revision past the last record the remover saw. */
export function removalChange(
  path: string,
  last: Pick<StoredMetadata, 'revision' | 'current_version'>,
  time: number,
): KeyChange {
  return { path, operation: 'metadata-delete', version: last.current_version, revision: last.revision + 1, time };
}
