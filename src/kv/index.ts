// Barrel of the KV area: the engine, its options, and the shapes it answers with.
export { KvEngine } from './kv-engine.js';
export type { KvEngineOptions, KvWarnings, KvReadOptions, KvPatchOptions, KvListOptions, KvScanOptions } from './kv-engine.js';
export type { KvWriteResult } from './data-operations.js';
export type { KvConfig, KvConfigInput } from './config.js';
export type { KvMetadataInput, KvMetadataPatchInput } from './metadata.js';
export type { JsonPatchOperation } from './json-patch.js';
export type { VersionMetadata, VersionSummary, SecretVersion, SecretSubkeys, KeyMetadata } from './views.js';
export type { ReclaimOptions, ReclaimResult } from './orphan-reclaim.js';
export type { DetailedListing } from './folder-listing.js';
export type { KvChangeEvent } from './change-events.js';
export type { KvChangeOperation } from './documents/head-document.js';
export type { KvChangeListener } from './change-feed.js';
