// Barrel of the KV area: the engines (version 2 and version 1), their options, and the shapes they answer with.
export { KvEngine } from './kv-engine.js';
export type {
  KvEngineOptions,
  KvWarnings,
  KvReadOptions,
  KvRestoreOptions,
  KvPatchOptions,
  KvListOptions,
  KvScanOptions,
} from './engine-options.js';
export type { KvWriteResult } from './operations/data-operations.js';
export type { KvConfig, KvConfigInput } from './rules/config.js';
export type { KvMetadataInput, KvMetadataPatchInput } from './rules/metadata.js';
export type { JsonPatchOperation } from './values/json-patch.js';
export type {
  Actor,
  VersionMetadata,
  VersionSummary,
  SecretVersion,
  SecretSubkeys,
  KeyMetadata,
} from './rules/views.js';
export type { ReclaimOptions, ReclaimResult } from './operations/orphan-reclaim.js';
export type { RestoreReport } from './operations/restore.js';
export type { KvSweepResult } from './operations/lifetime-sweep.js';
export type { KvReadManyRequest, KvReadManyResponse, KvReadManyResult } from './operations/read-many.js';
export type { DetailedListing } from './operations/folder-listing.js';
export type { KvChangeEvent, KvRecordedChanges } from './changes/change-events.js';
export type { KvChangeOperation } from './documents/head-document.js';
export type { KvChangeListener } from './changes/change-feed.js';
export { KvV1Engine } from './v1/kv-v1-engine.js';
export type { KvV1EngineOptions, KvV1ListOptions } from './v1/kv-v1-engine.js';
export { upgradeKvV1ToV2 } from './v1/upgrade.js';
export type { KvUpgradeOptions, KvUpgradeResult } from './v1/upgrade.js';
