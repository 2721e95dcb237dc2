import { formatDuration } from '../../lib/duration.js';
import { formatTimestamp } from '../../lib/time.js';
import type { StoredMetadata, StoredVersion } from '../documents/head-document.js';

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

/** One kept version in a key's metadata; times are RFC 3339 UTC. */
export interface VersionSummary {
  created_time: string;
  /** "" when no deletion is scheduled; may lie in the future. */
  deletion_time: string;
  destroyed: boolean;
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

function summary(version: StoredVersion): VersionSummary {
  return {
    created_time: formatTimestamp(version.created),
    deletion_time: formatTimestamp(version.deletion),
    destroyed: version.destroyed === true,
  };
}

/** The metadata of `version` of `key`, as reads, writes and patches answer it. */
export function versionMetadata(key: StoredMetadata, version: StoredVersion): VersionMetadata {
  const { created_time, deletion_time, destroyed } = summary(version);
  return { created_time, custom_metadata: customMetadataView(key), deletion_time, destroyed, version: version.version };
}

/** The key's metadata as it is answered; `key` must hold every kept version's entry, not only the inline ones. */
export function keyMetadata(key: StoredMetadata): KeyMetadata {
  return {
    cas_required: key.cas_required,
    created_time: formatTimestamp(key.created),
    current_metadata_version: key.metadata_version ?? 0,
    current_version: key.current_version,
    custom_metadata: customMetadataView(key),
    delete_version_after: formatDuration(key.delete_version_after),
    max_versions: key.max_versions,
    metadata_cas_required: key.metadata_cas_required === true,
    oldest_version: key.oldest_version,
    updated_time: formatTimestamp(key.updated),
    versions: Object.fromEntries(key.versions.map((version) => [String(version.version), summary(version)])),
  };
}
