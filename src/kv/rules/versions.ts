import type { StoredConfig } from '../documents/config-document.js';
import type { StoredActor, StoredMetadata, StoredVersion } from '../documents/head-document.js';

/** The version rules: numbering, pruning, soft deletion, undeletion, destruction. Pure functions over records. */

const DEFAULT_MAX_VERSIONS = 10;

const MS_PER_SECOND = 1000;

/** The key's own non-zero value wins, else the engine's, else 10 (decision 2). */
function effectiveMaxVersions(key: StoredMetadata, config: StoredConfig): number {
  return key.max_versions || config.max_versions || DEFAULT_MAX_VERSIONS;
}

/** The smaller of the non-zero engine and key values; a negative engine value disables the feature (decision 3). */
function deletionDelay(key: StoredMetadata, config: StoredConfig): number | undefined {
  if (config.delete_version_after < 0) return undefined;
  const set = [config.delete_version_after, key.delete_version_after].filter((seconds) => seconds > 0);
  return set.length > 0 ? Math.min(...set) : undefined;
}

/** The smaller of the non-zero engine and key values of destroy_version_after; 0 in both: none. */
function destructionDelay(key: StoredMetadata, config: StoredConfig): number | undefined {
  const set = [config.destroy_version_after, key.destroy_version_after].filter((seconds) => seconds > 0);
  return set.length > 0 ? Math.min(...set) : undefined;
}

function scheduledDeletion(from: number, key: StoredMetadata, config: StoredConfig): number | undefined {
  const delay = deletionDelay(key, config);
  return delay === undefined ? undefined : from + delay * MS_PER_SECOND;
}

/**
 * When a version written at `created` is destroyed: fixed at its write, as its deletion time is, so that every process
 * and every read agrees on it without reading the config.
 */
function scheduledDestruction(created: number, key: StoredMetadata, config: StoredConfig): number | undefined {
  const delay = destructionDelay(key, config);
  return delay === undefined ? undefined : created + delay * MS_PER_SECOND;
}

/** A deletion time at or before now hides the version (decision 8); expiry is lazy, there is no background job. */
export function isDeleted(version: StoredVersion, now: number): boolean {
  return version.deletion !== undefined && version.deletion <= now;
}

/**
 * Destroyed, by request or by its lifetime: a destruction time at or before now counts at once, on every read, before
 * the sweep (`expiredVersions`) has removed the data.
 */
export function isDestroyed(version: StoredVersion, now: number): boolean {
  return version.destroyed === true || (version.destruction !== undefined && version.destruction <= now);
}

export function isHidden(version: StoredVersion, now: number): boolean {
  return isDestroyed(version, now) || isDeleted(version, now);
}

/** The versions among `versions` past their destruction time whose data is still stored: what the sweep destroys. */
export function expiredVersions(versions: readonly StoredVersion[], now: number): number[] {
  return versions.filter((entry) => entry.destroyed !== true && isDestroyed(entry, now)).map((entry) => entry.version);
}

/** A read's `version`: absent, 0 or negative mean the current one. */
export function resolveVersion(key: StoredMetadata, requested: number | undefined): number {
  return requested !== undefined && requested > 0 ? requested : key.current_version;
}

/**
 * The kept entry of `version`. Entries are kept in ascending order and, unless a lowered max_versions pruned unevenly,
 * without gaps, so the entry's place follows from the first one's number: a read of the current version of a key
 * keeping 1,000 versions no longer walks them all. Any other layout is searched.
 */
export function findVersion(key: StoredMetadata, version: number): StoredVersion | undefined {
  const { versions } = key;
  const placed = versions[version - (versions[0]?.version ?? 0)];
  if (placed?.version === version) return placed;
  return versions.find((entry) => entry.version === version);
}

export interface Added {
  next: StoredMetadata;
  added: StoredVersion;
  /** Blobs of the pruned versions, to remove once the new record is committed. */
  dropped: string[];
}

/**
 * Appends version current+1 and prunes: once current - oldest reaches the maximum, every version up to
 * current - maximum goes (deleted and destroyed ones count too), so one write can prune many after the maximum was
 * lowered. `oldest_version` stays 0 until the first pruning point, as in Vault.
 */
export function addVersion(
  key: StoredMetadata,
  blob: string,
  now: number,
  config: StoredConfig,
  actor?: StoredActor,
): Added {
  const version = key.current_version + 1;
  const added: StoredVersion = { version, created: now, deletion: scheduledDeletion(now, key, config), blob };
  const destruction = scheduledDestruction(now, key, config);
  if (destruction !== undefined) added.destruction = destruction;
  if (actor) added.created_by = actor;
  let versions = [...key.versions, added];
  let oldest = key.oldest_version;
  const max = effectiveMaxVersions(key, config);
  const dropped: string[] = [];
  if (version - oldest >= max) {
    const cut = version - max;
    for (const entry of versions) if (entry.version <= cut && entry.blob) dropped.push(entry.blob);
    versions = versions.filter((entry) => entry.version > cut);
    oldest = cut + 1;
  }
  const next = { ...key, current_version: version, oldest_version: oldest, updated: now, versions };
  return { next: lastUpdatedBy(next, actor), added, dropped };
}

/** The key with its last change's actor: an unknown one replaces the last known, which it did not make. */
function lastUpdatedBy(key: StoredMetadata, actor: StoredActor | undefined): StoredMetadata {
  if (actor) return { ...key, last_updated_by: actor };
  if (key.last_updated_by === undefined) return key;
  const { last_updated_by: _replaced, ...rest } = key;
  return rest;
}

/** Applies `change` to the listed versions that exist; undefined when none changed. */
function changeVersions(
  key: StoredMetadata,
  numbers: readonly number[],
  change: (version: StoredVersion) => StoredVersion | undefined,
): StoredMetadata | undefined {
  const wanted = new Set(numbers);
  let changed = false;
  const versions = key.versions.map((entry) => {
    const next = wanted.has(entry.version) ? change(entry) : undefined;
    if (!next) return entry;
    changed = true;
    return next;
  });
  return changed ? { ...key, versions } : undefined;
}

/**
 * Soft-deletes the listed versions, each marked deleted by `actor`; destroyed ones and ones already deleted keep their
 * state, deletion time and actor.
 */
export function softDelete(
  key: StoredMetadata,
  numbers: readonly number[],
  now: number,
  actor?: StoredActor,
): StoredMetadata | undefined {
  const next = changeVersions(key, numbers, (entry) => {
    if (entry.destroyed || isDeleted(entry, now)) return undefined;
    const { deleted_by: _earlier, ...live } = entry;
    return actor ? { ...live, deletion: now, deleted_by: actor } : { ...live, deletion: now };
  });
  return next && lastUpdatedBy(next, actor);
}

/** Clears the deletion time (and who deleted) of the listed versions, then re-arms it from now by delete_version_after. */
export function undelete(
  key: StoredMetadata,
  numbers: readonly number[],
  now: number,
  config: StoredConfig,
  actor?: StoredActor,
): StoredMetadata | undefined {
  const deletion = scheduledDeletion(now, key, config);
  const next = changeVersions(key, numbers, (entry) => {
    if (entry.destroyed || (entry.deletion === deletion && entry.deleted_by === undefined)) return undefined;
    const { deleted_by: _cleared, ...kept } = entry;
    return { ...kept, deletion };
  });
  return next && lastUpdatedBy(next, actor);
}

export interface Destroyed {
  next: StoredMetadata;
  dropped: string[];
}

/** Marks the listed versions destroyed and drops their blobs; `destroyed` is never reset. */
export function destroy(key: StoredMetadata, numbers: readonly number[]): Destroyed | undefined {
  const dropped: string[] = [];
  const next = changeVersions(key, numbers, ({ blob, ...entry }) => {
    if (entry.destroyed) return undefined;
    if (blob) dropped.push(blob);
    return { ...entry, destroyed: true };
  });
  return next && { next, dropped };
}

/** The kept versions of a key: oldest_version (or 1 before the first pruning) through current_version. */
export function keptRange(key: StoredMetadata): { from: number; to: number } {
  return { from: Math.max(key.oldest_version, 1), to: key.current_version };
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}

/** Whether a version of the key keeps its data in its entry document (see StoredMetadata.documents_from). */
export function dataInDocument(key: StoredMetadata | undefined, version: number): boolean {
  const from = key?.documents_from;
  return from !== undefined && from > 0 && version >= from;
}

/**
 * Versions a commit prunes that may have an entry document, which is retired: those up to the highest version ever
 * spilled (a write that failed before its commit may have left one for a later version, which no read ever reaches and
 * a key deletion removes).
 */
export function pruned(current: StoredMetadata | undefined, next: StoredMetadata): number[] {
  if (!current || next.oldest_version <= current.oldest_version) return [];
  return range(keptRange(current).from, Math.min(next.oldest_version - 1, current.spilled));
}
