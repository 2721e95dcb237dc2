// The wrap TTL a request asks for, and whether a policy's bounds on it let the request through.
import { InvalidRequest } from '../../lib/errors.js';
import { parseDuration } from '../../lib/duration.js';
import type { Acl } from '../../acl/acl.js';
import type { ApiRequest } from '../http/request.js';

/** A policy's `min_wrapping_ttl` and `max_wrapping_ttl` for one path, in seconds; absent or 0 = no bound. */
export interface WrappingBounds {
  min?: number | undefined;
  max?: number | undefined;
}

/**
 * The wrapping TTL bounds that apply to a request the Acl granted on `path` (the bounds of the policies that granted
 * it, merged as Vault merges them). The ACL answers this; the dispatcher only enforces it.
 */
export type WrappingBoundsOf = (acl: Acl, path: string) => WrappingBounds;

/** What applies while no policy sets bounds. */
export const NO_WRAPPING_BOUNDS: WrappingBoundsOf = () => ({});

/**
 * The seconds `X-Vault-Wrap-TTL` asks for (a duration such as "15m", or seconds); 0 when the header is absent, empty
 * or zero, which asks for no wrapping, as in Vault. A value that is not a duration, or is negative, is a 400.
 */
export function wrapTtlOf(request: Pick<ApiRequest, 'headers'>): number {
  const header = request.headers['x-vault-wrap-ttl'];
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value === undefined || value.trim() === '') return 0;
  const seconds = parseDuration(value, 'X-Vault-Wrap-TTL');
  if (seconds < 0) throw new InvalidRequest('requested wrap ttl cannot be negative');
  return seconds;
}

/**
 * Vault's rule: a path with a maximum must be wrapped, within it; one with a minimum must be wrapped for at least that
 * long; bounds that cross (merged from several policies) let nothing through. `ttl` 0 = not wrapped.
 */
export function withinWrappingBounds({ min = 0, max = 0 }: WrappingBounds, ttl: number): boolean {
  if (max > 0 && (ttl === 0 || ttl > max)) return false;
  if (min > 0 && (ttl === 0 || ttl < min)) return false;
  return !(min > 0 && max > 0 && max < min);
}
