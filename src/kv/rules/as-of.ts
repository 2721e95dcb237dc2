import { InvalidRequest } from '../../lib/errors.js';
import type { StoredMetadata, StoredVersion } from '../documents/head-document.js';
import { isDestroyed } from './versions.js';

/**
 * Point in time: which version of a key was current at a past moment, from what the key's record keeps. A key records
 * each version's creation time, its deletion time as it stands now, and whether it is destroyed; it keeps no log of
 * undeletes, and a metadata delete removes its whole history. So the answer is exact except where those erased it:
 * - a version deleted before the moment and undeleted after it reads as live then (the undelete cleared its deletion
 *   time), and one deleted after the moment reads as live then, which it was;
 * - a version destroyed or pruned since is known by number at most, never by content;
 * - a key removed by a metadata delete and written again began with the new write.
 */

/** The state of a key at a moment, as far as its record tells. */
export type StateAt =
  /** No version of the key existed then (or the key did not). */
  | { state: 'absent'; entry?: undefined }
  /** The version current then exists and was deleted at that moment. */
  | { state: 'deleted'; entry: StoredVersion }
  /** The version current then is destroyed now (`entry`), or was pruned since (no entry): its data is gone. */
  | { state: 'gone'; entry?: StoredVersion }
  /** The version current then was readable then, and its data is still kept. */
  | { state: 'live'; entry: StoredVersion };

/** RFC 3339 with a time zone, as Vault's times are written; anything else is refused rather than guessed at. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The epoch milliseconds of an `as_of`; a 400 for anything but an RFC 3339 time at or before `now`. A later time is
 * refused rather than answered with the current state: what it would show can still change before it comes, and a
 * point-in-time answer should not.
 */
export function parseAsOf(text: string | Date, now: number): number {
  const time = text instanceof Date ? text.getTime() : RFC_3339.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) throw new InvalidRequest('as_of must be an RFC 3339 time, such as 2026-11-28T13:00:00Z');
  if (time > now) throw new InvalidRequest('as_of lies in the future: it must be a time at or before now');
  return time;
}

/**
 * The state at `time` of a key whose kept versions are `versions` (ascending): the newest version created by then is
 * the one current then, as `current_version` is now. A version destroyed by `now` (by request, or past its
 * destroy_version_after) is gone whatever the time asked.
 */
export function stateAt(
  key: StoredMetadata | undefined,
  versions: readonly StoredVersion[],
  time: number,
  now: number,
): StateAt {
  if (!key || key.created > time) return { state: 'absent' };
  const entry = versions.findLast((version) => version.created <= time);
  if (!entry) {
    // Versions before the oldest kept one were pruned: one of them may have been current then.
    const pruned = key.oldest_version > 1;
    return pruned ? { state: 'gone' } : { state: 'absent' };
  }
  if (isDestroyed(entry, now)) return { state: 'gone', entry };
  if (entry.deletion !== undefined && entry.deletion <= time) return { state: 'deleted', entry };
  return { state: 'live', entry };
}
