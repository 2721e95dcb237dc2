import { formatDuration } from '../../lib/duration.js';
import { formatTimestamp } from '../../lib/time.js';
import type { StoredActor, StoredMetadata, StoredVersion } from '../documents/head-document.js';
import { isDestroyed } from './versions.js';

/** The shapes the engine answers with, on the wire and from its typed methods alike (field names as in Vault). */

/** The metadata of one version, as data reads, subkeys reads, writes and patches return it. */
export interface VersionMetadata {
  created_time: string;
  /** The key's custom_metadata; null when empty. */
  custom_metadata: Record<string, string> | null;
  /** "" when no deletion is scheduled; may lie in the future. */
  deletion_time: string;
  destroyed: boolean;
  version: number;
}

/** A version read by `read`: its data and its metadata. */
export interface SecretVersion {
  data: Record<string, unknown>;
  metadata: VersionMetadata;
}

/** What `subkeys` answers: the data's structure (every leaf null) and the version's metadata. */
export interface SecretSubkeys {
  subkeys: Record<string, unknown>;
  metadata: VersionMetadata;
}

/**
 * Who made a change, as Vault 1.21 answers it: the caller's display name (`actor`), the `operation`, and the caller's
 * `entity_id` and `client_id`; a field that would be empty is left out.
 */
export interface Actor {
  actor?: string;
  operation: string;
  entity_id?: string;
  client_id?: string;
}

/** One kept version in a key's metadata; times are RFC 3339 UTC. */
export interface VersionSummary {
  created_time: string;
  /** "" when no deletion is scheduled; may lie in the future. */
  deletion_time: string;
  destroyed: boolean;
  /** Who wrote the version; null when unknown (versions written before the engine recorded it, or by a typed call). */
  created_by: Actor | null;
  /** Who soft-deleted it; null while it is not deleted by a caller (a scheduled deletion has none). */
  deleted_by: Actor | null;
}

/** A key's metadata, as `GET metadata/<key>` and `readMetadata` answer it; a setting of 0 or false defers to the config. */
export interface KeyMetadata {
  cas_required: boolean;
  created_time: string;
  /** Metadata writes and patches since the key was created; what `metadata_cas` is compared with. */
  current_metadata_version: number;
  current_version: number;
  custom_metadata: Record<string, string> | null;
  delete_version_after: string;
  /** How long after its write a version of the key is destroyed ("0s": the engine's setting). */
  destroy_version_after: string;
  /** Who last wrote, patched, deleted or undeleted a version; null when unknown. */
  last_updated_by: Actor | null;
  max_versions: number;
  metadata_cas_required: boolean;
  oldest_version: number;
  updated_time: string;
  /** Keyed by version number as a string. */
  versions: Record<string, VersionSummary>;
}

function customMetadataView(key: StoredMetadata): Record<string, string> | null {
  return Object.keys(key.custom_metadata).length > 0 ? { ...key.custom_metadata } : null;
}

function actorView(actor: StoredActor | undefined): Actor | null {
  return actor ? { ...actor } : null;
}

/**
 * The texts of creation times formatted lately, by time. A read of a key answers its version's creation time every
 * time, and formatting it cost more than the rest of the answer's metadata; the text depends on the time alone, so a
 * kept one is never stale. A map of numbers rather than one keyed by the entry: a WeakMap entry per write made every
 * write slower (the collector's weak tables). Bounded: emptied when full, which only costs formatting again.
 */
const createdTexts = new Map<number, string>();
const MAX_CREATED_TEXTS = 1024;

function createdText(created: number): string {
  let text = createdTexts.get(created);
  if (text === undefined) {
    text = formatTimestamp(created);
    if (createdTexts.size >= MAX_CREATED_TEXTS) createdTexts.clear();
    createdTexts.set(created, text);
  }
  return text;
}

/** Each answer is as of `now`: a version past its destruction time answers destroyed, as one destroyed by request. */
function summary(version: StoredVersion, now: number): VersionSummary {
  return {
    created_by: actorView(version.created_by),
    created_time: createdText(version.created),
    deleted_by: actorView(version.deleted_by),
    deletion_time: formatTimestamp(version.deletion),
    destroyed: isDestroyed(version, now),
  };
}

/** The metadata of `version` of `key`, as reads, writes and patches answer it (without actors, as in Vault). */
export function versionMetadata(key: StoredMetadata, version: StoredVersion, now: number): VersionMetadata {
  return {
    created_time: createdText(version.created),
    custom_metadata: customMetadataView(key),
    deletion_time: formatTimestamp(version.deletion),
    destroyed: isDestroyed(version, now),
    version: version.version,
  };
}

/** The key's metadata as it is answered; `key` must hold every kept version's entry, not only the inline ones. */
export function keyMetadata(key: StoredMetadata, now: number): KeyMetadata {
  return {
    cas_required: key.cas_required,
    created_time: formatTimestamp(key.created),
    current_metadata_version: key.metadata_version ?? 0,
    current_version: key.current_version,
    custom_metadata: customMetadataView(key),
    delete_version_after: formatDuration(key.delete_version_after),
    destroy_version_after: formatDuration(key.destroy_version_after),
    last_updated_by: actorView(key.last_updated_by),
    max_versions: key.max_versions,
    metadata_cas_required: key.metadata_cas_required === true,
    oldest_version: key.oldest_version,
    updated_time: formatTimestamp(key.updated),
    versions: Object.fromEntries(key.versions.map((version) => [String(version.version), summary(version, now)])),
  };
}
