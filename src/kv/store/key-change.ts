import type { unchanged } from '../../core/store/stored-json.js';
import type { StoredMetadata } from '../documents/head-document.js';

/**
 * One change of a key, as the key store runs it: a function from the key's record to the next one, which stages the
 * data of any version it adds; and what the commit answers. The two ways of committing (atomic-changes.ts,
 * ordered-changes.ts) run the same changes.
 */

/** Stores the data of a new version and answers its blob id. */
export type Stage = (data: Record<string, unknown>) => Promise<string>;

/** What a change answers: the next record, the blobs it stops referencing, and the caller's result. */
export interface Change<R> {
  /** The new record, or `unchanged` to write nothing. */
  next: StoredMetadata | typeof unchanged;
  /** Blobs the new record no longer references. */
  dropped?: readonly string[];
  result: R;
}

/** A change of one key: the current record (undefined for a new key) in, the next one out; may run again on a newer record. */
export type ChangeFunction<R> = (current: StoredMetadata | undefined, stage: Stage) => Promise<Change<R>>;

/** What a committed change answers. */
export interface Committed<R> {
  result: R;
  /** The record as stored afterwards (undefined for a key that does not exist). */
  stored: StoredMetadata | undefined;
  /** Blobs whose removal failed; they stay in the record's garbage. */
  pending: string[];
  warnings: string[];
}

/** Which entries beyond the inline ones a change sees, and whether they all stay inline afterwards. */
export interface CommitOptions {
  /** Versions whose entries the change needs in the record it is given, besides the inline ones. */
  load?: (current: StoredMetadata) => readonly number[];
  /** Keep every loaded entry inline, changed or not, so that no entry document is authoritative afterwards. */
  inlineAll?: boolean;
}
