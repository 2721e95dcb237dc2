// Vault's lifetime rules for client tokens: how long a token minted or renewed now may live, given the system maximum
// and the token's own limits.
import { formatDuration } from '../../lib/duration.js';
import { InvalidRequest } from '../../lib/errors.js';

/** Vault's system default and maximum token TTL: 768h. */
export const DEFAULT_MAX_TTL_SECONDS = 768 * 3600;

export interface WantedTtl {
  increment: number;
  ttl: number;
  period: number;
  maxTtl: number;
  explicitMaxTtl: number;
}

export interface TtlContext {
  /** Epoch milliseconds. */
  issuedAt: number;
  now: number;
  defaultTtl: number;
  systemMaxTtl: number;
}

/**
 * Vault's TTL arithmetic, in seconds: the effective maximum is the smallest of the system maximum, max_ttl and
 * explicit_max_ttl, counted from the issue time; a periodic token gets its period each time, limited only by
 * explicit_max_ttl.
 */
export function calculateTtl(wanted: WantedTtl, context: TtlContext): { ttl: number; warnings: string[] } {
  const { increment, ttl, period, maxTtl, explicitMaxTtl } = wanted;
  const warnings: string[] = [];
  const elapsed = Math.floor((context.now - context.issuedAt) / 1000);
  let max = context.systemMaxTtl;
  if (maxTtl > 0 && maxTtl < max) max = maxTtl;
  if (explicitMaxTtl > 0 && explicitMaxTtl < max) max = explicitMaxTtl;

  if (period > 0) {
    let result = period;
    if (result > max) {
      warnings.push(
        `period of ${formatDuration(period)} exceeded the effective max_ttl of ${formatDuration(max)}; period value is capped accordingly`,
      );
      result = max;
    }
    if (explicitMaxTtl > 0) result = Math.min(result, explicitMaxTtl - elapsed);
    if (result <= 0) throw new InvalidRequest('past the max TTL, cannot renew');
    return { ttl: result, warnings };
  }

  let result = increment > 0 ? increment : ttl > 0 ? ttl : context.defaultTtl;
  const left = max - elapsed;
  if (left <= 0) throw new InvalidRequest('past the max TTL, cannot renew');
  if (result > left) {
    warnings.push(
      `TTL of ${formatDuration(result)} exceeded the effective max_ttl of ${formatDuration(left)}; TTL value is capped accordingly`,
    );
    result = left;
  }
  return { ttl: result, warnings };
}
