import { InvalidRequest } from '../../lib/errors.js';
import { int } from '../../core/framework/fields.js';
import type { StoredConfig } from '../documents/config-document.js';
import type { StoredMetadata } from '../documents/head-document.js';

/**
 * Check-and-set for metadata (OpenBao's wire): every metadata write or patch of an existing key counts up the key's
 * `current_metadata_version`; a write or patch that carries `metadata_cas` applies only when that number still matches,
 * and one without it is refused while the key or the engine sets `metadata_cas_required`.
 */

/** A non-negative integer; OpenBao names the field at the top level of the body, beside the metadata fields. */
export const metadataCasField = int({ min: 0 })
  .optional()
  .describe("The change applies only when this is the key's `current_metadata_version` (0 to create the metadata).");

const REQUIRED = 'metadata check-and-set parameter required for this call';
const MISMATCH = 'metadata check-and-set parameter does not match the current version';
const CREATE_NEEDS_ZERO = 'metadata_cas must be 0 when creating new metadata';
const REQUIRED_IGNORED =
  '"metadata_cas_required" set to false, but is mandated by backend config. This value will be ignored.';

export function metadataVersionOf(key: StoredMetadata): number {
  return key.metadata_version ?? 0;
}

/** Throws InvalidRequest (400) when the change must not apply; `current` is undefined for a key about to be created. */
export function checkMetadataCas(
  cas: number | undefined,
  current: StoredMetadata | undefined,
  config: StoredConfig,
): void {
  if (current === undefined) {
    if (cas !== undefined && cas !== 0) throw new InvalidRequest(CREATE_NEEDS_ZERO);
    return;
  }
  if (cas === undefined) {
    if (config.metadata_cas_required === true || current.metadata_cas_required === true)
      throw new InvalidRequest(REQUIRED);
  } else if (cas !== metadataVersionOf(current)) {
    throw new InvalidRequest(MISMATCH);
  }
}

/** The next record's metadata version: created keys start at 0, and each change of an existing key adds one. */
export function nextMetadataVersion(current: StoredMetadata | undefined): number {
  return current === undefined ? 0 : metadataVersionOf(current) + 1;
}

/** Like cas_required, a key cannot weaken the engine's requirement: its false is stored, and the caller is told. */
export function metadataCasRequiredWarnings(requested: boolean | null | undefined, config: StoredConfig): string[] {
  return requested === false && config.metadata_cas_required === true ? [REQUIRED_IGNORED] : [];
}
