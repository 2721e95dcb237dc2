import { z } from 'zod';
import { bool, duration, int } from '../../core/framework/fields.js';
import { checkCustomMetadataSize, customMetadata, customMetadataPatch } from '../values/custom-metadata.js';
import { mergePatch } from '../values/merge-patch.js';
import { metadataCasField } from './metadata-cas.js';
import type { StoredConfig } from '../documents/config-document.js';
import type { StoredMetadata } from '../documents/head-document.js';

/** Key metadata: its fields, the rules of metadata writes and patches, and the record of a new key. */

/** The fields of `POST metadata/<key>`, each optional. */
export const metadataWriteFields = z.object({
  max_versions: int({ min: 0 }).optional().describe("The versions the key keeps; 0: the engine's setting."),
  cas_required: bool()
    .optional()
    .describe("Every data write of the key must carry `options.cas`; `false` cannot lift the engine's `true`."),
  delete_version_after: duration()
    .optional()
    .describe("How long after its write a version of the key reads as deleted; 0: the engine's setting."),
  destroy_version_after: duration()
    .optional()
    .describe("How long after its write a version of the key is destroyed, its data removed; 0: the engine's setting."),
  custom_metadata: customMetadata()
    .optional()
    .describe('Strings kept with the key (at most 64 entries); replaces the whole map.'),
  metadata_cas_required: bool()
    .optional()
    .describe("Every metadata change of the key must carry `metadata_cas`; `false` cannot lift the engine's `true`."),
  metadata_cas: metadataCasField,
});
export type MetadataWrite = z.output<typeof metadataWriteFields>;
/**
 * What `writeMetadata` takes: the fields of `POST metadata/:path`.
 * @useDeclaredType
 */
export type KvMetadataInput = z.input<typeof metadataWriteFields>;

/** Unknown and read-only fields are ignored; null resets max_versions to 0 and cas_required to false. */
export const metadataPatchFields = z.object({
  max_versions: int({ min: 0 }).nullable().optional().describe('As for a write; `null` resets it to 0.'),
  cas_required: bool().nullable().optional().describe('As for a write; `null` resets it to false.'),
  delete_version_after: duration().nullable().optional().describe('As for a write; `null` changes nothing.'),
  destroy_version_after: duration().nullable().optional().describe('As for a write; `null` changes nothing.'),
  custom_metadata: customMetadataPatch()
    .optional()
    .describe('Merged per entry: `null` removes an entry, and `null` for the map removes every entry.'),
  metadata_cas_required: bool().nullable().optional().describe('As for a write; `null` resets it to false.'),
  metadata_cas: metadataCasField,
});
export type MetadataPatch = z.output<typeof metadataPatchFields>;
/**
 * What `patchMetadata` takes: the fields of `PATCH metadata/:path`.
 * @useDeclaredType
 */
export type KvMetadataPatchInput = z.input<typeof metadataPatchFields>;

/** A new key's settings: 0 and false defer to the engine's config. */
const NEW_KEY_SETTINGS = {
  max_versions: 0,
  cas_required: false,
  delete_version_after: 0,
  destroy_version_after: 0,
} as const;

export function newMetadata(now: number): StoredMetadata {
  return {
    created: now,
    updated: now,
    current_version: 0,
    oldest_version: 0,
    ...NEW_KEY_SETTINGS,
    custom_metadata: {},
    revision: 0,
    spilled: 0,
    versions: [],
    garbage: [],
    retired: [],
  };
}

/**
 * The key with a new key's metadata in place of its own: settings deferring to the engine, no custom_metadata, no
 * metadata_cas requirement, metadata changes counted from 0 (what a copy or move gives a caller without rights on it).
 */
export function withNewKeySettings(key: StoredMetadata): StoredMetadata {
  const { metadata_cas_required: _required, metadata_version: _changes, ...rest } = key;
  return { ...rest, ...NEW_KEY_SETTINGS, custom_metadata: {} };
}

/** A metadata write with none of the settable fields changes nothing and creates nothing (metadata_cas sets nothing). */
export function hasMetadataFields(write: MetadataWrite | MetadataPatch): boolean {
  return Object.entries(write).some(([name, value]) => name !== 'metadata_cas' && value !== undefined);
}

/** Only the fields sent change; custom_metadata, when sent, replaces the whole map. Nothing is pruned now. */
export function applyMetadataWrite(key: StoredMetadata, write: MetadataWrite): StoredMetadata {
  return {
    ...key,
    max_versions: write.max_versions ?? key.max_versions,
    cas_required: write.cas_required ?? key.cas_required,
    delete_version_after: write.delete_version_after ?? key.delete_version_after,
    destroy_version_after: write.destroy_version_after ?? key.destroy_version_after,
    custom_metadata: write.custom_metadata ?? key.custom_metadata,
    metadata_cas_required: write.metadata_cas_required ?? key.metadata_cas_required,
  };
}

/** custom_metadata merges per key (null removes one, null for the whole map removes all); a null duration is a no-op. */
export function applyMetadataPatch(key: StoredMetadata, patch: MetadataPatch): StoredMetadata {
  const custom = patch.custom_metadata;
  const customMetadata =
    custom === undefined
      ? key.custom_metadata
      : custom === null
        ? {}
        : (mergePatch(key.custom_metadata, custom) as Record<string, string>);
  checkCustomMetadataSize(customMetadata);
  return {
    ...key,
    max_versions: patch.max_versions === undefined ? key.max_versions : (patch.max_versions ?? 0),
    cas_required: patch.cas_required === undefined ? key.cas_required : (patch.cas_required ?? false),
    delete_version_after: patch.delete_version_after ?? key.delete_version_after,
    destroy_version_after: patch.destroy_version_after ?? key.destroy_version_after,
    custom_metadata: customMetadata,
    metadata_cas_required:
      patch.metadata_cas_required === undefined ? key.metadata_cas_required : (patch.metadata_cas_required ?? false),
  };
}

const CAS_REQUIRED_IGNORED =
  '"cas_required" set to false, but is mandated by backend config. This value will be ignored.';

/** A key cannot weaken the engine's cas requirement: `cas_required: false` is stored anyway, and the caller is told. */
export function casRequiredWarnings(config: StoredConfig): string[] {
  return config.cas_required ? [CAS_REQUIRED_IGNORED] : [];
}
