import { z } from 'zod';
import { documentFormat, storedCount } from './document-format.js';
import { withDestroyLifetime } from './head-document.js';

/** The engine's settings (StorageLayout.config): the defaults of every key, which a key's metadata may override. */
const storedConfig = z.object({
  /** 0 = unset (10 are kept). */
  max_versions: storedCount,
  cas_required: z.boolean(),
  /** Seconds; 0 = unset; negative (stored as -1) disables automatic deletion for the whole engine. */
  delete_version_after: z.number().int(),
  /** Seconds after its write that a version is destroyed; 0 = unset (format 2 on). */
  destroy_version_after: storedCount,
  /**
   * Set, never cleared, once the config or any key set destroy_version_after: until then no version has a destruction
   * time, and the sweep reads nothing but this.
   */
  lifetimes_set: z.literal(true).optional(),
  /** Every metadata write and patch must carry metadata_cas; absent in configs written before it existed. */
  metadata_cas_required: z.boolean().optional(),
});
export type StoredConfig = z.infer<typeof storedConfig>;

/** How the config is read and written; format 2 came with destroy_version_after, as the heads' format 3 did. */
export const configFormat = documentFormat({ shape: storedConfig, upgrades: [withDestroyLifetime] });

/** The settings of an engine that never stored its config: every one unset. */
export const DEFAULT_CONFIG: StoredConfig = Object.freeze({
  max_versions: 0,
  cas_required: false,
  delete_version_after: 0,
  destroy_version_after: 0,
});
