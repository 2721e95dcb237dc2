import type { AuthGrant } from '../../../core/framework/request.js';
import type { StoredRole } from '../../roles/role.js';
import { refuseRootPolicy } from '../../roles/token-settings.js';
import type { InternalData } from './internal-data.js';
import { grantLifetimes } from './ttl.js';

export interface GrantParts {
  role: StoredRole;
  policies: readonly string[];
  maxTtl: number;
  /** Metadata every grant of this login type carries (ec2: role, role_tag_max_ttl, nonce; iam: role_id). */
  fixedMetadata: ReadonlyMap<string, string>;
  /** Every value config/identity may select for the metadata, by name. */
  selectable: ReadonlyMap<string, string>;
  /** config/identity's selection (`default` already expanded). */
  selected: readonly string[];
  aliasName: string;
  displayName?: string;
  internalData: InternalData;
}

/**
 * The AuthGrant of a successful login (as in Vault). The selected metadata (empty values skipped) goes on the grant
 * and on its alias; the fixed keys only on the grant. Token settings come from the role.
 */
export function buildGrant(parts: GrantParts): AuthGrant {
  refuseRootPolicy(parts.policies, 'the policies of this login');
  const chosen = Object.fromEntries(
    parts.selected.flatMap((name) => {
      const value = parts.selectable.get(name);
      return value ? [[name, value]] : [];
    }),
  );
  const { token } = parts.role;
  return {
    policies: [...parts.policies],
    metadata: { ...chosen, ...Object.fromEntries(parts.fixedMetadata) },
    alias: { name: parts.aliasName, metadata: { ...chosen } },
    ...(parts.displayName ? { display_name: parts.displayName } : {}),
    ...grantLifetimes(token, parts.maxTtl),
    num_uses: token.num_uses,
    no_default_policy: token.no_default_policy,
    token_type: token.type,
    bound_cidrs: [...token.bound_cidrs],
    renewable: true,
    internal_data: { ...parts.internalData },
  };
}
