// A mount's tunable settings, as Vault tunes them: the lease TTLs, the description, and the options (for KV, the
// version, which may go from 1 to 2 and never back).
import { InvalidRequest } from '../../lib/errors.js';
import type { MountDefinition } from './mount-definition.js';

/** What a tune changes; a field left out keeps its value. TTLs in seconds, 0 for the system's. */
export interface MountTuning {
  description?: string | undefined;
  defaultLeaseTtl?: number | undefined;
  maxLeaseTtl?: number | undefined;
  /** Merged into the mount's options; an empty value removes its key (never `version`). */
  options?: Record<string, string> | undefined;
}

/** A KV version as Vault reads one: 1 or 2, as a number or a numeric string. */
export function parseKvVersion(value: string): '1' | '2' {
  const version = value.trim();
  if (version === '1' || version === '2') return version;
  throw new InvalidRequest(`invalid version provided: ${JSON.stringify(value)}`);
}

/** Refuses a default TTL above the maximum, when both are the mount's own (0 is the system's). */
export function checkTtls(defaultTtl: number, maxTtl: number): void {
  if (defaultTtl !== 0 && maxTtl !== 0 && maxTtl < defaultTtl) {
    throw new InvalidRequest(
      `backend max lease TTL of ${maxTtl} would be less than backend default lease TTL of ${defaultTtl}`,
    );
  }
}

function tunedOptions(current: MountDefinition, wanted: Record<string, string>): Record<string, string> | null {
  const options: Record<string, string> = { ...current.options };
  for (const [key, value] of Object.entries(wanted)) {
    if (key === 'version') {
      if (current.type !== 'kv')
        throw new InvalidRequest(`secrets engine "${current.type}" does not allow setting a version`);
      const version = parseKvVersion(value);
      const have = current.options?.version ?? '1';
      if (have > version) throw new InvalidRequest(`cannot downgrade mount from version ${have}`);
      options.version = version;
    } else if (value === '') delete options[key];
    else options[key] = value;
  }
  return Object.keys(options).length > 0 ? options : current.options;
}

/** `current` with `tuning` applied, checked as Vault checks a tune. */
export function tunedDefinition(current: MountDefinition, tuning: MountTuning): MountDefinition {
  const defaultLeaseTtl = tuning.defaultLeaseTtl ?? current.defaultLeaseTtl;
  const maxLeaseTtl = tuning.maxLeaseTtl ?? current.maxLeaseTtl;
  checkTtls(defaultLeaseTtl, maxLeaseTtl);
  return {
    ...current,
    description: tuning.description ?? current.description,
    defaultLeaseTtl,
    maxLeaseTtl,
    options: tuning.options ? tunedOptions(current, tuning.options) : current.options,
  };
}

/** Whether `tuning` takes a KV version 1 mount to version 2, which rewrites its data first. */
export const upgradesKv = (current: MountDefinition, tuning: MountTuning) =>
  current.type === 'kv' && (current.options?.version ?? '1') === '1' && tuning.options?.version?.trim() === '2';
