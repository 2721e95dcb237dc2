// The policies a new token gets, by the rules of Vault's token store. Without a role, or with a role that sets no
// allowed or disallowed policies, a token holds no more than the token that asks for it, unless that token has `sudo`
// on the path. A role that sets them replaces that rule: its allowed set is what it lets any token it is granted to
// mint, held or not, which is the point of a role; its disallowed set is refused whatever is asked.
import { DEFAULT_POLICY_NAME, ROOT_POLICY_NAME, sanitizePolicyNames } from '../../acl/builtin-policies.js';
import { InvalidRequest } from '../../lib/errors.js';

/**
 * The one policy of a wrapping token (Vault's name). It is never granted otherwise: a token holding it is taken for a
 * wrapping token, which authenticates nothing but its own unwrapping.
 */
export const RESPONSE_WRAPPING_POLICY = 'response-wrapping';

/** Refuses a policy set that holds the wrapping tokens' policy, as Vault refuses to assign it. */
export function checkAssignable(policies: readonly string[]): void {
  if (policies.includes(RESPONSE_WRAPPING_POLICY))
    throw new InvalidRequest(`cannot assign policy ${JSON.stringify(RESPONSE_WRAPPING_POLICY)}`);
}

/** What of a token role decides policies. */
export interface RolePolicyRules {
  allowed_policies: readonly string[];
  disallowed_policies: readonly string[];
  allowed_policies_glob: readonly string[];
  disallowed_policies_glob: readonly string[];
  token_no_default_policy: boolean;
}

export interface PolicyRequest {
  /** What the caller asked for; none (or empty) means "as the parent, or as the role allows". */
  asked: readonly string[] | undefined;
  noDefaultPolicy: boolean;
  parentPolicies: readonly string[];
  /** Whether the caller holds `sudo` on the path it called. */
  sudo: boolean;
  role?: RolePolicyRules | undefined;
}

/** Vault's sanitising of a policy list: trimmed, lower-cased, deduplicated, sorted; `root` stands alone. */
export function sanitisedPolicies(names: readonly string[], addDefault = false): string[] {
  const clean = sanitizePolicyNames(addDefault ? [...names, DEFAULT_POLICY_NAME] : names);
  return clean.includes(ROOT_POLICY_NAME) ? [ROOT_POLICY_NAME] : clean;
}

/** Vault's policy globs: `*` stands for any run of characters, anywhere and any number of times; nothing else is special. */
export function globMatches(pattern: string, value: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === value;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!value.startsWith(first) || value.length < first.length + last.length) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = value.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return value.endsWith(last) && value.length - last.length >= at;
}

const matchesAny = (names: readonly string[], globs: readonly string[], policy: string) =>
  names.includes(policy) || globs.some((glob) => globMatches(glob, policy));

const quoted = (names: readonly string[]) => `[${names.map((name) => JSON.stringify(name)).join(' ')}]`;

function rolePolicies(asked: readonly string[] | undefined, request: PolicyRequest, role: RolePolicyRules): string[] {
  // `default` comes with a role's tokens unless the caller, the role or its disallowed lists keep it out.
  const addDefault =
    !request.noDefaultPolicy &&
    !role.token_no_default_policy &&
    !matchesAny(role.disallowed_policies, role.disallowed_policies_glob, DEFAULT_POLICY_NAME);
  let policies = asked && asked.length > 0 ? sanitisedPolicies(asked, addDefault) : [];
  if (role.allowed_policies.length > 0 || role.allowed_policies_glob.length > 0) {
    const allowed = sanitisedPolicies(role.allowed_policies, addDefault);
    if (policies.length === 0) policies = allowed;
    else {
      const globs = sanitisedPolicies(role.allowed_policies_glob);
      if (!policies.every((policy) => matchesAny(allowed, globs, policy)))
        throw new InvalidRequest(
          `token policies (${quoted(policies)}) must be subset of the role's allowed policies (${quoted(allowed)}) or glob policies (${quoted(globs)})`,
        );
    }
  } else if (policies.length === 0) {
    policies = sanitisedPolicies(request.parentPolicies, addDefault);
  }
  const denied = sanitizePolicyNames(role.disallowed_policies);
  const deniedGlobs = sanitizePolicyNames(role.disallowed_policies_glob);
  const refused = policies.find((policy) => matchesAny(denied, deniedGlobs, policy));
  if (refused !== undefined)
    throw new InvalidRequest(`token policy ${JSON.stringify(refused)} is disallowed by this role`);
  return policies;
}

const restricts = (role: RolePolicyRules | undefined): role is RolePolicyRules =>
  role !== undefined &&
  [role.allowed_policies, role.disallowed_policies, role.allowed_policies_glob, role.disallowed_policies_glob].some(
    (list) => list.length > 0,
  );

/**
 * The new token's policies. A role with allowed or disallowed policies decides them (above). Otherwise: none asked,
 * the parent's (`default` only if the parent holds it); asked without sudo, a subset of the parent's, plus `default` if
 * the parent holds it; asked with sudo, any, plus `default`. The caller's `no_default_policy` takes `default` out in
 * every case (a role's `token_no_default_policy` only stops it being added), and only a root parent may make root.
 */
export function resolveTokenPolicies(request: PolicyRequest): string[] {
  const { asked, noDefaultPolicy, parentPolicies, sudo, role } = request;
  const held = sanitisedPolicies(parentPolicies);
  let policies: string[];
  if (restricts(role)) policies = rolePolicies(asked, request, role);
  else if (!asked || asked.length === 0) policies = held;
  else {
    const wanted = sanitisedPolicies(asked);
    if (!sudo && !wanted.every((name) => held.includes(name)))
      throw new InvalidRequest('child policies must be subset of parent');
    policies = sanitisedPolicies(wanted, !noDefaultPolicy && (sudo || held.includes(DEFAULT_POLICY_NAME)));
  }
  if (noDefaultPolicy) policies = policies.filter((name) => name !== DEFAULT_POLICY_NAME);
  checkAssignable(policies);
  // Sudo, or a role, lets a token grant policies it lacks, but never root: that would make it root.
  if (policies.includes(ROOT_POLICY_NAME) && !held.includes(ROOT_POLICY_NAME))
    throw new InvalidRequest('root tokens may not be created without parent token being root');
  return policies;
}
