// What auth/token/create, create-orphan and create/<role> make, by the rules of Vault's token store: a new token holds
// no more than the token that asks for it (policies, `default`, bound CIDRs, lifetime), unless that token has `sudo` on
// the path, which root has everywhere, or a role says otherwise. A token with limited uses creates nothing, or its
// limit would not bind what it made.
import { ROOT_POLICY_NAME } from '../../acl/builtin-policies.js';
import { InvalidRequest } from '../../lib/errors.js';
import { globMatches, resolveTokenPolicies } from './token-policies.js';
import type { NewTokenFields, TokenRecord } from './token-record.js';
import type { TokenRole } from './token-role.js';

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
  entity_alias?: string | undefined;
  type?: string | undefined;
}

export interface CreateContext {
  parent: TokenRecord;
  /** auth/token/create-orphan: the new token is an orphan, whoever asks. */
  orphan: boolean;
  /** Whether the parent holds `sudo` on the path it called. */
  sudo: boolean;
  /** auth/token/create/<role>: the role it is made with. */
  role?: TokenRole | undefined;
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

/** `token-<name>`, with what is not a letter, digit or '-' replaced, as Vault shows it. */
function displayNameOf(name: string | undefined): string {
  return name ? `token-${name}`.replace(/[^a-zA-Z0-9-]/g, '-').replace(/-$/, '') : 'token';
}

/** A `type` asked for: service tokens only; a role whose token_type is `service` makes service tokens whatever is asked. */
function checkType(type: string | undefined, role: TokenRole | undefined): void {
  if (role?.token_type === 'service' || type === undefined || type === '' || type === 'service') return;
  if (type === 'batch')
    throw new InvalidRequest('batch tokens are not supported: this server makes service tokens only (type "service")');
  throw new InvalidRequest("invalid 'token_type' value");
}

/** Vault's checks of `entity_alias`; one that passes them is refused all the same, as there is no identity store. */
function checkEntityAlias(alias: string | undefined, role: TokenRole | undefined): void {
  if (alias === undefined || alias === '') return;
  if (!role) throw new InvalidRequest("'entity_alias' is only allowed in combination with token role");
  const lower = alias.toLowerCase();
  if (!role.allowed_entity_aliases.some((allowed) => globMatches(allowed, lower)))
    throw new InvalidRequest("invalid 'entity_alias' value");
  throw new InvalidRequest("'entity_alias' is not supported: this server has no identity store to hold the entity");
}

/** The lesser of what was asked and what the role sets, with Vault's warning when both set one. */
function lesser(asked: number, fromRole: number, name: string, warnings: string[]): number {
  if (fromRole === 0) return asked;
  if (asked === 0) return fromRole;
  const chosen = Math.min(asked, fromRole);
  warnings.push(`${name} specified both during creation call and in role; using the lesser value of ${chosen} seconds`);
  return chosen;
}

/** A role's cap on uses: 0 is unlimited, so 1 is less than 0. */
function usesOf(asked: number, role: TokenRole | undefined): number {
  const cap = role?.token_num_uses ?? 0;
  return cap === 0 ? asked : asked === 0 ? cap : Math.min(asked, cap);
}

export function planToken(input: CreateRequest, { parent, orphan, sudo, role, ttlFor }: CreateContext): TokenPlan {
  // On its last use the caller's entry reads 0 uses left, which would pass for unlimited: it is marked used up.
  if (parent.numUses > 0 || parent.usedUp)
    throw new InvalidRequest('restricted use token cannot generate child tokens');
  checkType(input.type, role);
  checkEntityAlias(input.entity_alias, role);
  const policies = resolveTokenPolicies({
    asked: input.policies,
    noDefaultPolicy: input.no_default_policy === true,
    parentPolicies: parent.policies,
    sudo,
    role,
  });
  // A role decides orphanhood itself; without one, no_parent needs sudo.
  if (!role && input.no_parent && !sudo)
    throw new InvalidRequest('root or sudo privileges required to create orphan token');
  const child = role ? !role.orphan : !orphan && !input.no_parent;
  const warnings: string[] = [];
  const askedPeriod = input.period ?? 0;
  if (askedPeriod > 0 && !sudo) throw new InvalidRequest('root or sudo privileges required to create periodic token');
  const period = lesser(askedPeriod, role?.token_period ?? 0, 'Period', warnings);
  const explicitMaxTtl = lesser(
    input.explicit_max_ttl ?? 0,
    role?.token_explicit_max_ttl ?? 0,
    'Explicit max TTL',
    warnings,
  );
  const asked = input.ttl ?? input.lease ?? 0;
  // Only a root token asked for without any lifetime never expires; explicit_max_ttl still bounds a root token.
  const lifetime =
    period > 0 || asked > 0 || !policies.includes(ROOT_POLICY_NAME)
      ? ttlFor({ ttl: asked, period, maxTtl: 0, explicitMaxTtl })
      : { ttl: explicitMaxTtl, warnings: [] };
  const forever = lifetime.ttl === 0;
  if (forever && parent.expiresAt !== 0)
    throw new InvalidRequest('expiring root tokens cannot create non-expiring root tokens');
  const path = role
    ? `auth/token/create/${role.name}${role.path_suffix ? `/${role.path_suffix}` : ''}`
    : orphan
      ? 'auth/token/create-orphan'
      : 'auth/token/create';
  // A role's bound addresses replace the parent's: roles may widen what a token could otherwise hold.
  const inherited = child ? parent.boundCidrs : [];
  return {
    child,
    ttl: lifetime.ttl,
    warnings: [...warnings, ...lifetime.warnings],
    fields: {
      policies,
      meta: input.meta ?? null,
      displayName: displayNameOf(input.display_name),
      path,
      ...(role ? { role: role.name } : {}),
      ttl: asked,
      explicitMaxTtl,
      period,
      numUses: usesOf(input.num_uses ?? 0, role),
      // A token that never expires is not renewable, as in Vault, and (made by root only) never bound to addresses.
      renewable: !forever && input.renewable !== false && role?.renewable !== false,
      boundCidrs: forever ? [] : role ? role.token_bound_cidrs : inherited,
    },
  };
}
