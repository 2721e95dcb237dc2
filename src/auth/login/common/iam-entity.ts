import type { CallerIdentity } from '../../../ports/cloud.js';
import { parsePrincipalArn, type PrincipalArn } from '../../../lib/arn.js';

/** The entity an iam login authenticates, and how bound ARNs match it (as in Vault). */

/** Who an iam login authenticated, derived from STS's GetCallerIdentity answer. */
export interface IamEntity extends PrincipalArn {
  /** The ARN exactly as STS returned it (an assumed role's includes the session name): the `full_arn` alias. */
  arn: string;
  /** STS's UserId up to the first ':' (AIDA... for users, AROA... for roles): the `unique_id` alias. */
  uniqueId: string;
  /** The friendly name, or `<RoleName>/<SessionName>` for an assumed role. */
  displayName: string;
}

export function iamEntityFromCallerIdentity(identity: CallerIdentity): IamEntity {
  const principal = parsePrincipalArn(identity.arn);
  const uniqueId = identity.userId.split(':', 1)[0] as string;
  const displayName =
    principal.type === 'assumed-role' ? `${principal.friendlyName}/${principal.sessionName}` : principal.friendlyName;
  return { ...principal, arn: identity.arn, uniqueId, displayName };
}

/**
 * Whether a bound ARN (or other bound value) matches. A pattern of two or more characters ending in `*` matches by
 * prefix, and one that also starts with `*` by substring; anything else, including a lone `*` and a `*` elsewhere,
 * must equal the value exactly (as in Vault).
 */
export function matchesArnPattern(pattern: string, value: string): boolean {
  if (pattern.length < 2 || !pattern.endsWith('*')) return pattern === value;
  if (pattern.startsWith('*')) return value.includes(pattern.slice(1, -1));
  return value.startsWith(pattern.slice(0, -1));
}
