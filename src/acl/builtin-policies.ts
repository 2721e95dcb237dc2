/** The policy of root tokens: it allows everything and holds no rules. */
export const ROOT_POLICY_NAME = 'root';

/** The policy every token gets unless it is made with `no_default_policy`; it can be edited, never deleted. */
export const DEFAULT_POLICY_NAME = 'default';

/**
 * The `default` policy that every token carries unless it was issued with `no_default_policy`: the part of Vault's
 * shipped default policy that concerns a token's own lifecycle (Vault's version also covers cubbyhole, response
 * wrapping, leases and identity paths).
 */
export const DEFAULT_POLICY = `# Allow tokens to look up their own properties
path "auth/token/lookup-self" {
  capabilities = ["read"]
}

# Allow tokens to renew themselves
path "auth/token/renew-self" {
  capabilities = ["update"]
}

# Allow tokens to revoke themselves
path "auth/token/revoke-self" {
  capabilities = ["update"]
}

# Allow a token to look up its own capabilities on a path
path "sys/capabilities-self" {
  capabilities = ["update"]
}
`;

/** Policy names as Vault keeps them: trimmed, lower-cased, without empties or duplicates, sorted. */
export function sanitizePolicyNames(names: Iterable<string>): string[] {
  const cleaned = new Set<string>();
  for (const name of names) {
    const normalised = name.trim().toLowerCase();
    if (normalised !== '') cleaned.add(normalised);
  }
  return [...cleaned].sort();
}

/**
 * The policies of a token minted from a login grant: the grant's policies plus `default` unless `no_default_policy`,
 * lower-cased, deduplicated and sorted as Vault stores them.
 */
export function tokenPolicies(grant: { policies: readonly string[]; no_default_policy?: boolean }): string[] {
  return sanitizePolicyNames(grant.no_default_policy ? grant.policies : [...grant.policies, DEFAULT_POLICY_NAME]);
}
