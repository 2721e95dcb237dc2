import { z } from 'zod';
import { formatDuration } from '../core/duration.js';
import { bool, duration, int } from '../core/fields.js';
import { sameBytes } from '../core/bytes.js';
import { KeyedMutex } from '../core/lock.js';
import { CorruptDocument, type JsonStore } from '../core/stored-json.js';
import { configFormat, DEFAULT_CONFIG, type StoredConfig } from './documents/config-document.js';
import type { StorageLayout } from './documents/storage-layout.js';

/** Engine-wide settings (`config`): defaults for every key, which a key's metadata may override. */

/** Any negative delete_version_after disables the feature; it is kept as -1 and reads back as "-1s". */
const DISABLED = -1;

export const configWriteFields = z.object({
  max_versions: int({ min: 0 }).optional(),
  cas_required: bool().optional(),
  delete_version_after: duration({ allowNegative: true }).optional(),
  metadata_cas_required: bool().optional(),
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
  return configFormat.write({
    max_versions: write.max_versions ?? current.max_versions,
    cas_required: write.cas_required ?? current.cas_required,
    delete_version_after: dva === undefined ? current.delete_version_after : dva < 0 ? DISABLED : dva,
    metadata_cas_required: write.metadata_cas_required ?? current.metadata_cas_required,
  });
}

/**
 * The stored config a write starts from. A corrupt one (not JSON, which the JsonStore replaces, or of the wrong shape)
 * is replaced from the defaults rather than refused: a write is how it gets repaired.
 */
function repairable(stored: unknown, key: string): StoredConfig {
  if (stored === undefined) return DEFAULT_CONFIG;
  try {
    return configFormat.read(stored, key);
  } catch (error) {
    if (error instanceof CorruptDocument) return DEFAULT_CONFIG;
    throw error;
  }
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
    const config = Object.freeze(configFormat.decode(bytes, key));
    this.decoded = { bytes, config };
    return config;
  }

  /** Only the fields given change; with none, nothing is stored. */
  async write(write: ConfigWrite): Promise<void> {
    if (Object.values(write).every((value) => value === undefined)) return;
    const key = this.layout.config;
    await this.mutex.run(key, () => this.json.update<StoredConfig>(key, (stored: unknown) => applyConfigWrite(repairable(stored, key), write), { replaceCorrupt: true }));
  }
}
