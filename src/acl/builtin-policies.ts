/** The policy of root tokens: it allows everything and holds no rules. */
export const ROOT_POLICY_NAME = 'root';

/** The policy every token gets unless it is made with `no_default_policy`; it can be edited, never deleted. */
export const DEFAULT_POLICY_NAME = 'default';

/**
 * The `default` policy that every token carries unless it was issued with `no_default_policy`: the parts of Vault's
 * shipped default policy that concern a token's own lifecycle and response wrapping (Vault's version also covers
 * cubbyhole, leases and identity paths).
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

# Allow a token to wrap values in a response-wrapping token
path "sys/wrapping/wrap" {
  capabilities = ["update"]
}

# Allow a token to look up the creation time, TTL and path of a response-wrapping token
path "sys/wrapping/lookup" {
  capabilities = ["update"]
}

# Allow a token to unwrap a response-wrapping token it was handed
path "sys/wrapping/unwrap" {
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
