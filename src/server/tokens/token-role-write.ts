// A write of auth/token/roles/<name>, by Vault's rules: a field not given keeps its value (a new role's default on
// create); the token_ fields win over their deprecated names, which are kept only so that a read shows them; only
// service tokens are made here, so a role for batch tokens is refused rather than quietly making service ones.
import { z } from 'zod';
import { sanitizePolicyNames } from '../../acl/builtin-policies.js';
import { parseCidr } from '../../auth/roles/cidr.js';
import { bool, duration, int, str, stringList } from '../../core/framework/fields.js';
import { InvalidRequest } from '../../lib/errors.js';
import { sanitisedPolicies } from './token-policies.js';
import type { TokenRole } from './token-role.js';

/** The fields a role write takes; built with the routes, where they are used. */
export const roleFields = () =>
  z.object({
    allowed_policies: stringList().optional(),
    disallowed_policies: stringList().optional(),
    allowed_policies_glob: stringList().optional(),
    disallowed_policies_glob: stringList().optional(),
    orphan: bool().optional(),
    renewable: bool().optional(),
    path_suffix: str({ maxLength: 256 }).optional(),
    token_period: duration().optional(),
    period: duration().optional(),
    token_explicit_max_ttl: duration().optional(),
    explicit_max_ttl: duration().optional(),
    token_bound_cidrs: stringList().optional(),
    bound_cidrs: stringList().optional(),
    token_no_default_policy: bool().optional(),
    token_num_uses: int({ min: 0 }).optional(),
    token_type: str({ maxLength: 64 }).optional(),
    allowed_entity_aliases: stringList().optional(),
  });

export type RoleInput = z.output<ReturnType<typeof roleFields>>;

/** Vault's path suffixes, whole: a word character at each end, word characters, '-' and '.' between. */
const PATH_SUFFIX = /^\w[\w.-]+\w$/;

function pathSuffix(value: string): string {
  if (value === '') return value;
  if (!PATH_SUFFIX.test(value) || value.includes('..'))
    throw new InvalidRequest(
      `given role path suffix contains invalid characters; must match ${PATH_SUFFIX.source} and hold no ".."`,
    );
  return value;
}

function cidrs(field: string, values: readonly string[]): string[] {
  const bad = values.find((value) => !parseCidr(value));
  if (bad !== undefined)
    throw new InvalidRequest(
      `invalid value for field "${field}": ${JSON.stringify(bad)} is not an IP address or CIDR block`,
    );
  return [...values];
}

function tokenType(value: string): TokenRole['token_type'] {
  switch (value) {
    case 'service':
      return 'service';
    case 'default':
    case 'default-service':
      return 'default-service';
    case 'batch':
    case 'default-batch':
      throw new InvalidRequest(
        `token_type ${JSON.stringify(value)} is not supported: this server makes service tokens only (token_type "service")`,
      );
    default:
      throw new InvalidRequest(`invalid 'token_type' value ${JSON.stringify(value)}`);
  }
}

/**
 * A token_ field and its deprecated name: the token_ one when given (the other is then ignored, with a warning);
 * else the deprecated one, which sets both.
 */
function legacyPair<T>(
  current: { value: T; legacy: T },
  given: { value: T | undefined; legacy: T | undefined },
  cleared: T,
  names: [string, string],
  warnings: string[],
): { value: T; legacy: T } {
  if (given.value !== undefined) {
    if (given.legacy !== undefined)
      warnings.push(`Both '${names[0]}' and deprecated '${names[1]}' value supplied, ignoring the deprecated value`);
    return { value: given.value, legacy: cleared };
  }
  if (given.legacy !== undefined) return { value: given.legacy, legacy: given.legacy };
  return current;
}

/** The role after a write of `input` over `current` (an existing role, or a new one's defaults). */
export function writeRole(current: TokenRole, input: RoleInput): { role: TokenRole; warnings: string[] } {
  const warnings: string[] = [];
  const period = legacyPair(
    { value: current.token_period, legacy: current.period },
    { value: input.token_period, legacy: input.period },
    0,
    ['token_period', 'period'],
    warnings,
  );
  const explicitMaxTtl = legacyPair(
    { value: current.token_explicit_max_ttl, legacy: current.explicit_max_ttl },
    { value: input.token_explicit_max_ttl, legacy: input.explicit_max_ttl },
    0,
    ['token_explicit_max_ttl', 'explicit_max_ttl'],
    warnings,
  );
  const boundCidrs = legacyPair(
    { value: current.token_bound_cidrs, legacy: current.bound_cidrs },
    {
      value: input.token_bound_cidrs && cidrs('token_bound_cidrs', input.token_bound_cidrs),
      legacy: input.bound_cidrs && cidrs('bound_cidrs', input.bound_cidrs),
    },
    [],
    ['token_bound_cidrs', 'bound_cidrs'],
    warnings,
  );
  const role: TokenRole = {
    ...current,
    ...(input.allowed_policies && { allowed_policies: sanitisedPolicies(input.allowed_policies) }),
    ...(input.disallowed_policies && { disallowed_policies: sanitizePolicyNames(input.disallowed_policies) }),
    ...(input.allowed_policies_glob && { allowed_policies_glob: sanitisedPolicies(input.allowed_policies_glob) }),
    ...(input.disallowed_policies_glob && {
      disallowed_policies_glob: sanitizePolicyNames(input.disallowed_policies_glob),
    }),
    ...(input.orphan !== undefined && { orphan: input.orphan }),
    ...(input.renewable !== undefined && { renewable: input.renewable }),
    ...(input.path_suffix !== undefined && { path_suffix: pathSuffix(input.path_suffix) }),
    ...(input.token_no_default_policy !== undefined && { token_no_default_policy: input.token_no_default_policy }),
    ...(input.token_num_uses !== undefined && { token_num_uses: input.token_num_uses }),
    ...(input.token_type !== undefined && { token_type: tokenType(input.token_type) }),
    ...(input.allowed_entity_aliases && {
      allowed_entity_aliases: sanitizePolicyNames(input.allowed_entity_aliases),
    }),
    token_period: period.value,
    period: period.legacy,
    token_explicit_max_ttl: explicitMaxTtl.value,
    explicit_max_ttl: explicitMaxTtl.legacy,
    token_bound_cidrs: boundCidrs.value,
    bound_cidrs: boundCidrs.legacy,
  };
  return { role, warnings };
}

/** What a read of the role answers, in Vault's shape. */
export function roleView(role: TokenRole): Record<string, unknown> {
  return {
    period: role.period,
    token_period: role.token_period,
    explicit_max_ttl: role.explicit_max_ttl,
    token_explicit_max_ttl: role.token_explicit_max_ttl,
    disallowed_policies: role.disallowed_policies,
    allowed_policies: role.allowed_policies,
    disallowed_policies_glob: role.disallowed_policies_glob,
    allowed_policies_glob: role.allowed_policies_glob,
    name: role.name,
    orphan: role.orphan,
    path_suffix: role.path_suffix,
    renewable: role.renewable,
    token_type: role.token_type,
    allowed_entity_aliases: role.allowed_entity_aliases,
    token_no_default_policy: role.token_no_default_policy,
    ...(role.token_bound_cidrs.length > 0 && { token_bound_cidrs: role.token_bound_cidrs }),
    ...(role.bound_cidrs.length > 0 && { bound_cidrs: role.bound_cidrs }),
    ...(role.token_num_uses > 0 && { token_num_uses: role.token_num_uses }),
  };
}
