import type { AuthGrant } from '../../../core/framework/request.js';
import type { TokenSettings } from '../../roles/token-settings.js';

/**
 * The lifetimes of a grant (as in Vault). A token may live no longer than the shortest of the mount maximum
 * (the engine's mountMaxTtl), the role's token_max_ttl and a role tag's max TTL, ignoring those that are unset (0).
 * The access-list entry of an ec2 login must outlive every token it could have produced, so it lasts the longest.
 */
export function maxTtlBounds(mountMaxTtl: number, ...limits: number[]): { shortest: number; longest: number } {
  const set = [mountMaxTtl, ...limits].filter((seconds) => seconds > 0);
  return { shortest: Math.min(...set), longest: Math.max(...set) };
}

/**
 * The TTL fields of a grant for a role and the max TTL login or renewal decided. The TTL never exceeds the max TTL, so
 * the caller never has to reconcile the two; 0 still means "the caller's default".
 */
export function grantLifetimes(
  token: TokenSettings,
  maxTtl: number,
): Pick<AuthGrant, 'ttl' | 'max_ttl' | 'period' | 'explicit_max_ttl'> {
  return {
    ttl: Math.min(token.ttl, maxTtl),
    max_ttl: maxTtl,
    period: token.period,
    explicit_max_ttl: token.explicit_max_ttl,
  };
}
