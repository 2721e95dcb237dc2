// What auth/token/create and create-orphan make, by the rules of Vault's token store: a new token holds no more than
// the token that asks for it (policies, `default`, bound CIDRs, lifetime), unless that token has `sudo` on the path,
// which root has everywhere. A token with limited uses creates nothing, or its limit would not bind what it made.
import { DEFAULT_POLICY_NAME, ROOT_POLICY_NAME, sanitizePolicyNames } from '../../acl/builtin-policies.js';
import { InvalidRequest } from '../../lib/errors.js';
import type { NewTokenFields, TokenRecord } from './token-record.js';

export interface CreateRequest {
  policies?: string[] | undefined;
  meta?: Record<string, string> | undefined;
  no_parent?: boolean | undefined;
  no_default_policy?: boolean | undefined;
  renewable?: boolean | undefined;
  ttl?: number | undefined;
  lease?: number | undefined;
  explicit_max_ttl?: number | undefined;
  period?: number | undefined;
  display_name?: string | undefined;
  num_uses?: number | undefined;
}

export interface CreateContext {
  parent: TokenRecord;
  /** auth/token/create-orphan: the new token is an orphan, whoever asks. */
  orphan: boolean;
  /** Whether the parent holds `sudo` on the path it called. */
  sudo: boolean;
  /** The store's TTL rules (system default and maximum). */
  ttlFor: (wanted: { ttl: number; period: number; maxTtl: number; explicitMaxTtl: number }) => {
    ttl: number;
    warnings: string[];
  };
}

export interface TokenPlan {
  fields: NewTokenFields;
  /** Seconds; 0 = never expires. */
  ttl: number;
  /** Whether the new token is the parent's child (else an orphan). */
  child: boolean;
  warnings: string[];
}

/** Vault's sanitising of a policy list: trimmed, lower-cased, deduplicated, sorted; `root` stands alone. */
function sanitised(names: readonly string[]): string[] {
  const clean = sanitizePolicyNames(names);
  return clean.includes(ROOT_POLICY_NAME) ? [ROOT_POLICY_NAME] : clean;
}

/**
 * The new token's policies. None asked: the parent's, `default` only if the parent holds it. Asked without sudo: a
 * subset of the parent's (`default` included: asking for it without holding it fails), plus `default` if the parent
 * holds it. Asked with sudo: any, plus `default`. `no_default_policy` takes `default` out in every case.
 */
function childPolicies(
  asked: readonly string[] | undefined,
  parent: TokenRecord,
  sudo: boolean,
  noDefault: boolean,
): string[] {
  const held = new Set(sanitised(parent.policies));
  let policies: string[];
  let addDefault = false;
  if (!asked || asked.length === 0) {
    policies = [...held];
  } else {
    policies = sanitised(asked);
    if (!sudo && !policies.every((name) => held.has(name)))
      throw new InvalidRequest('child policies must be subset of parent');
    addDefault = !noDefault && (sudo || held.has(DEFAULT_POLICY_NAME));
  }
  if (addDefault && !policies.includes(ROOT_POLICY_NAME)) policies = sanitised([...policies, DEFAULT_POLICY_NAME]);
  if (noDefault) policies = policies.filter((name) => name !== DEFAULT_POLICY_NAME);
  // Sudo lets a token grant policies it lacks, but never root: that would make it root.
  if (policies.includes(ROOT_POLICY_NAME) && !held.has(ROOT_POLICY_NAME))
    throw new InvalidRequest('root tokens may not be created without parent token being root');
  return policies;
}

/** `token-<name>`, with what is not a letter, digit or '-' replaced, as Vault shows it. */
function displayNameOf(name: string | undefined): string {
  return name ? `token-${name}`.replace(/[^a-zA-Z0-9-]/g, '-').replace(/-$/, '') : 'token';
}

export function planToken(input: CreateRequest, { parent, orphan, sudo, ttlFor }: CreateContext): TokenPlan {
  // On its last use the caller's entry reads 0 uses left, which would pass for unlimited: it is marked used up.
  if (parent.numUses > 0 || parent.usedUp)
    throw new InvalidRequest('restricted use token cannot generate child tokens');
  const policies = childPolicies(input.policies, parent, sudo, input.no_default_policy === true);
  if (input.no_parent && !sudo) throw new InvalidRequest('root or sudo privileges required to create orphan token');
  const period = input.period ?? 0;
  if (period > 0 && !sudo) throw new InvalidRequest('root or sudo privileges required to create periodic token');
  const child = !orphan && !input.no_parent;
  const asked = input.ttl ?? input.lease ?? 0;
  const explicitMaxTtl = input.explicit_max_ttl ?? 0;
  // Only a root token asked for without any lifetime never expires; explicit_max_ttl still bounds a root token.
  const lifetime =
    period > 0 || asked > 0 || !policies.includes(ROOT_POLICY_NAME)
      ? ttlFor({ ttl: asked, period, maxTtl: 0, explicitMaxTtl })
      : { ttl: explicitMaxTtl, warnings: [] };
  const forever = lifetime.ttl === 0;
  if (forever && parent.expiresAt !== 0)
    throw new InvalidRequest('expiring root tokens cannot create non-expiring root tokens');
  return {
    child,
    ...lifetime,
    fields: {
      policies,
      meta: input.meta ?? null,
      displayName: displayNameOf(input.display_name),
      path: orphan ? 'auth/token/create-orphan' : 'auth/token/create',
      ttl: asked,
      explicitMaxTtl,
      period,
      numUses: input.num_uses ?? 0,
      // A token that never expires is not renewable, as in Vault. (Vault also frees it from bound addresses; here a
      // root token, the only kind that makes one, is never bound.)
      renewable: !forever && input.renewable !== false,
      boundCidrs: child ? parent.boundCidrs : [],
    },
  };
}
