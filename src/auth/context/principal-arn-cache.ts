import type { CloudScope } from '../../ports/cloud.js';

/**
 * How long a principal's full ARN is reused. AWS never gives a unique ID to another principal and a role's or user's
 * path cannot change, so the answer itself cannot go stale; what the lookup also proves is that the principal still
 * exists, and a deletion is seen once the entry lapses. Short, so that window stays small.
 */
export const PRINCIPAL_ARN_TTL_MS = 60_000;
// Bounds memory when many distinct principals log in; the oldest entry goes first.
const MAX_ENTRIES = 10_000;

/**
 * Full ARNs (with the IAM path) that wildcard bindings are matched against, by principal unique ID, per account,
 * region, STS role and external ID: a lookup made with one role's credentials never answers for another's. Only
 * found principals whose unique ID matched the caller's are kept; a miss or a mismatch is looked up again next time.
 */
export class PrincipalArnCache {
  private readonly entries = new Map<string, { arn: string; until: number }>();

  static key(scope: CloudScope, canonicalArn: string, uniqueId: string): string {
    const { roleArn = '', externalId = '' } = scope.stsRole ?? {};
    return JSON.stringify([scope.accountId ?? '', scope.region ?? '', roleArn, externalId, canonicalArn, uniqueId]);
  }

  get(key: string, now: number): string | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.arn;
    this.entries.delete(key);
    return undefined;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  remember(key: string, arn: string, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { arn, until: now + PRINCIPAL_ARN_TTL_MS });
  }
}
