// Barrel of the KV area: the engine, its options, and the shapes it answers with.
export { KvEngine } from './kv-engine.js';
export type {
  KvEngineOptions,
  KvWarnings,
  KvReadOptions,
  KvPatchOptions,
  KvListOptions,
  KvScanOptions,
} from './engine-options.js';
export type { KvWriteResult } from './operations/data-operations.js';
export type { KvConfig, KvConfigInput } from './rules/config.js';
export type { KvMetadataInput, KvMetadataPatchInput } from './rules/metadata.js';
export type { JsonPatchOperation } from './values/json-patch.js';
export type { VersionMetadata, VersionSummary, SecretVersion, SecretSubkeys, KeyMetadata } from './rules/views.js';
export type { ReclaimOptions, ReclaimResult } from './operations/orphan-reclaim.js';
export type { DetailedListing } from './operations/folder-listing.js';
export type { KvChangeEvent } from './changes/change-events.js';
export type { KvChangeOperation } from './documents/head-document.js';
export type { KvChangeListener } from './changes/change-feed.js';
