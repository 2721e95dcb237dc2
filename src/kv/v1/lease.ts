import { parseDuration } from '../../lib/duration.js';

/** Vault's default lease TTL (768h), which a read answers when the data sets none. */
export const DEFAULT_LEASE_SECONDS = 768 * 3600;

/**
 * The `lease_duration` of a read, as Vault's passthrough backend answers it: the data's `ttl` (or, failing that, its
 * older name `lease`) as a duration, when it parses as one; otherwise the engine's default. It is a hint to re-read the
 * secret, not a lease: nothing expires. A negative duration counts as unparseable, since no client can wait it.
 */
export function leaseDuration(data: Record<string, unknown>, fallback: number): number {
  const raw = Object.hasOwn(data, 'ttl') ? data.ttl : Object.hasOwn(data, 'lease') ? data.lease : undefined;
  if (typeof raw !== 'number' && typeof raw !== 'string') return fallback;
  try {
    const seconds = parseDuration(raw);
    return seconds >= 0 ? seconds : fallback;
  } catch {
    return fallback;
  }
}
