import { z } from 'zod';
import { formatDuration } from '../../core/duration.js';
import { bool, duration, int } from '../../core/fields.js';
import { configFormat, type StoredConfig } from '../documents/config-document.js';

/** Engine-wide settings (`config`): the fields of `POST config`, how a write applies them, and how they are shown. */

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

/** The stored config after a write: only the fields given change. */
export function applyConfigWrite(current: StoredConfig, write: ConfigWrite): StoredConfig {
  const dva = write.delete_version_after;
  return configFormat.write({
    max_versions: write.max_versions ?? current.max_versions,
    cas_required: write.cas_required ?? current.cas_required,
    delete_version_after: dva === undefined ? current.delete_version_after : dva < 0 ? DISABLED : dva,
    metadata_cas_required: write.metadata_cas_required ?? current.metadata_cas_required,
  });
}
