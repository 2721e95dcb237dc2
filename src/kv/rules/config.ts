import { z } from 'zod';
import { formatDuration } from '../../lib/duration.js';
import { bool, duration, int } from '../../core/framework/fields.js';
import { configFormat, DEFAULT_CONFIG, type StoredConfig } from '../documents/config-document.js';

/** Engine-wide settings (`config`): the fields of `POST config`, how a write applies them, and how they are shown. */

/** Any negative delete_version_after disables the feature; it is kept as -1 and reads back as "-1s". */
const DISABLED = -1;

/** The fields of `POST config`, each optional, converted loosely as Vault does ("10" for 10, "1h" for 3600 seconds). */
export const configWriteFields = z.object({
  max_versions: int({ min: 0 }).optional().meta({
    description: 'The versions a key keeps unless its own `max_versions` is set; 0: 10.',
    default: DEFAULT_CONFIG.max_versions,
  }),
  cas_required: bool().optional().meta({
    description: 'Every data write must carry `options.cas`; no key can lift this.',
    default: DEFAULT_CONFIG.cas_required,
  }),
  delete_version_after: duration({ allowNegative: true }).optional().meta({
    description:
      "How long after its write a version reads as deleted, or the key's own value if shorter; 0: never; negative: off for every key.",
    default: DEFAULT_CONFIG.delete_version_after,
  }),
  destroy_version_after: duration().optional().meta({
    description:
      "How long after its write a version is destroyed (its data removed), or the key's own value if shorter; 0: never.",
    default: DEFAULT_CONFIG.destroy_version_after,
  }),
  metadata_cas_required: bool().optional().meta({
    description: 'Every metadata write or patch must carry `metadata_cas`; no key can lift this.',
    default: false,
  }),
});
/** A config write as checked: durations in seconds. */
export type ConfigWrite = z.output<typeof configWriteFields>;
/**
 * What `writeConfig` takes: the fields of `POST config`, with the same loose conversions.
 * @useDeclaredType
 */
export type KvConfigInput = z.input<typeof configWriteFields>;

/** The engine-wide settings, as `GET config` and `readConfig` answer them. */
export interface KvConfig {
  /** Every data write and patch must carry `cas`. */
  cas_required: boolean;
  /** How long after its write a version is soft-deleted, as a duration ("0s": never; "-1s": disabled for every key). */
  delete_version_after: string;
  /** How long after its write a version is destroyed, as a duration ("0s": never, unless a key sets its own). */
  destroy_version_after: string;
  /** Versions a key keeps (0: 10), unless its own metadata says otherwise. */
  max_versions: number;
  /** Every metadata write and patch must carry `metadata_cas`. */
  metadata_cas_required: boolean;
}

/** The stored config as it is answered. */
export function configView(config: StoredConfig): KvConfig {
  return {
    cas_required: config.cas_required,
    delete_version_after: formatDuration(config.delete_version_after),
    destroy_version_after: formatDuration(config.destroy_version_after),
    max_versions: config.max_versions,
    metadata_cas_required: config.metadata_cas_required === true,
  };
}

/** The stored config after a write: only the fields given change. */
export function applyConfigWrite(current: StoredConfig, write: ConfigWrite): StoredConfig {
  const dva = write.delete_version_after;
  return configFormat.write({
    max_versions: write.max_versions ?? current.max_versions,
    cas_required: write.cas_required ?? current.cas_required,
    delete_version_after: dva === undefined ? current.delete_version_after : dva < 0 ? DISABLED : dva,
    destroy_version_after: write.destroy_version_after ?? current.destroy_version_after,
    ...(current.lifetimes_set || (write.destroy_version_after ?? 0) > 0 ? { lifetimes_set: true } : {}),
    metadata_cas_required: write.metadata_cas_required ?? current.metadata_cas_required,
  });
}
