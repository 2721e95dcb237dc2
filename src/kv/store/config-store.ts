import { sameBytes } from '../../lib/bytes.js';
import { KeyedMutex } from '../../core/store/lock.js';
import { CorruptDocument, type JsonStore } from '../../core/store/stored-json.js';
import { configFormat, DEFAULT_CONFIG, type StoredConfig } from '../documents/config-document.js';
import type { StorageLayout } from '../documents/storage-layout.js';
import { applyConfigWrite, type ConfigWrite } from '../rules/config.js';

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

  /** Records that a key sets destroy_version_after (config-document.ts), once: a config that says so is left alone. */
  async markLifetimes(): Promise<void> {
    if ((await this.read()).lifetimes_set) return;
    const key = this.layout.config;
    await this.mutex.run(key, () =>
      this.json.update<StoredConfig>(
        key,
        (stored: unknown) => configFormat.write({ ...repairable(stored, key), lifetimes_set: true }),
        {
          replaceCorrupt: true,
        },
      ),
    );
  }

  /** Only the fields given change; with none, nothing is stored. */
  async write(write: ConfigWrite): Promise<void> {
    if (Object.values(write).every((value) => value === undefined)) return;
    const key = this.layout.config;
    await this.mutex.run(key, () =>
      this.json.update<StoredConfig>(key, (stored: unknown) => applyConfigWrite(repairable(stored, key), write), {
        replaceCorrupt: true,
      }),
    );
  }
}
