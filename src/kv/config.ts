import { z } from 'zod';
import { formatDuration } from '../lib/duration.js';
import { bool, duration, int } from '../core/framework/fields.js';
import { sameBytes } from '../lib/bytes.js';
import { KeyedMutex } from '../core/store/lock.js';
import type { JsonStore } from '../core/store/stored-json.js';
import type { StoredConfig } from './records.js';
import type { StorageLayout } from './storage-layout.js';

/** Engine-wide settings (`config`): defaults for every key, which a key's metadata may override. */

const DEFAULT_CONFIG: StoredConfig = Object.freeze({ max_versions: 0, cas_required: false, delete_version_after: 0 });

/** Any negative delete_version_after disables the feature; it is kept as -1 and reads back as "-1s". */
const DISABLED = -1;

export const configWriteFields = z.object({
  max_versions: int({ min: 0 }).optional().meta({
    description: "The versions a key keeps unless its own `max_versions` is set; 0: 10.",
    default: DEFAULT_CONFIG.max_versions,
  }),
  cas_required: bool().optional().meta({
    description: 'Every data write must carry `options.cas`; no key can lift this.',
    default: DEFAULT_CONFIG.cas_required,
  }),
  delete_version_after: duration({ allowNegative: true }).optional().meta({
    description: "How long after its write a version reads as deleted, or the key's own value if shorter; 0: never; negative: off for every key.",
    default: DEFAULT_CONFIG.delete_version_after,
  }),
  metadata_cas_required: bool().optional().meta({
    description: 'Every metadata write or patch must carry `metadata_cas`; no key can lift this.',
    default: false,
  }),
});
export type ConfigWrite = z.output<typeof configWriteFields>;
/** What `writeConfig` takes: the fields of `POST config`, with the same loose conversions. */
export type KvConfigInput = z.input<typeof configWriteFields>;

export interface KvConfig {
  cas_required: boolean;
  delete_version_after: string;
  max_versions: number;
  metadata_cas_required: boolean;
}

export function configView(config: StoredConfig): KvConfig {
  return {
    cas_required: config.cas_required,
    delete_version_after: formatDuration(config.delete_version_after),
    max_versions: config.max_versions,
    metadata_cas_required: config.metadata_cas_required === true,
  };
}

function applyConfigWrite(current: StoredConfig, write: ConfigWrite): StoredConfig {
  const dva = write.delete_version_after;
  return {
    max_versions: write.max_versions ?? current.max_versions,
    cas_required: write.cas_required ?? current.cas_required,
    delete_version_after: dva === undefined ? current.delete_version_after : dva < 0 ? DISABLED : dva,
    metadata_cas_required: write.metadata_cas_required ?? current.metadata_cas_required,
  };
}

/**
 * Read on every change rather than cached, so that engines in several processes see each other's settings. The config
 * last decoded is kept with its bytes: a read that finds the same bytes answers it without decoding and checking them
 * again (frozen, so no caller can alter it).
 */
export class ConfigStore {
  private readonly mutex = new KeyedMutex();
  private decoded?: { bytes: Uint8Array; config: StoredConfig };

  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
  ) {}

  async read(): Promise<StoredConfig> {
    const key = this.layout.config;
    const bytes = await this.json.getRaw(key);
    if (bytes === undefined) return DEFAULT_CONFIG;
    if (this.decoded && sameBytes(this.decoded.bytes, bytes)) return this.decoded.config;
    const config = Object.freeze(this.json.decode<StoredConfig>(bytes, key));
    this.decoded = { bytes, config };
    return config;
  }

  /** Only the fields given change; with none, nothing is stored. */
  async write(write: ConfigWrite): Promise<void> {
    if (Object.values(write).every((value) => value === undefined)) return;
    const key = this.layout.config;
    await this.mutex.run(key, () =>
      // A corrupt stored config is replaced (from the defaults) rather than refused: a write is how it gets repaired.
      this.json.update<StoredConfig>(key, (current) => applyConfigWrite(current ?? DEFAULT_CONFIG, write), { replaceCorrupt: true }),
    );
  }
}
