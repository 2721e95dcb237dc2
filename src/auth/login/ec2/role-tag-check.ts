import { AuthenticationRefused, isStrongroomError } from '../../../lib/errors.js';
import type { InstanceDescription } from '../../../ports/cloud.js';
import type { AuthContext } from '../../context/auth-context.js';
import { isRoleTagDenied } from '../../lists/denylist.js';
import {
  parseRoleTag,
  roleTagNamesRole,
  roleTagPoliciesAllowed,
  verifyRoleTag,
  type ParsedRoleTag,
} from '../../roles/role-tag.js';
import type { StoredRole } from '../../roles/role.js';

/** What a verified role tag changes about an ec2 login. */
export interface RoleTagEffect {
  /** The tag's policies in the role's spelling; undefined inherits the role's, [] grants none. */
  policies: string[] | undefined;
  /** Seconds; 0 when the tag sets none. */
  maxTtl: number;
  disallowReauthentication: boolean;
}

const refused = (message: string) => new AuthenticationRefused(message);

/**
 * The role tag on the described instance, for a role with `role_tag` set (as in Vault): present under the role's
 * key, naming the login role (case-insensitively), signed with the role's key, bound to this instance if
 * it names one, not denied, and narrowing the role's policies. Every failure refuses the login (403). The tag's
 * `m=` flag is not used: only the role's allow_instance_migration counts.
 */
export async function checkRoleTag(
  context: AuthContext,
  role: StoredRole,
  roleName: string,
  instance: InstanceDescription,
): Promise<RoleTagEffect | undefined> {
  if (role.role_tag === '') return undefined;
  const value = Object.hasOwn(instance.tags, role.role_tag) ? instance.tags[role.role_tag] : undefined;
  if (!value) throw refused(`missing tag with key ${JSON.stringify(role.role_tag)} on the instance`);
  const tag = parseTag(value);
  if (!roleTagNamesRole(tag, roleName)) throw refused('role on the tag is not matching the role supplied');
  if (!verifyRoleTag(tag, role.hmac_key)) throw refused('role tag signature verification failed');
  if (tag.instanceId !== '' && tag.instanceId !== instance.instanceId.toLowerCase()) {
    throw refused('role tag is being used by an unauthorized instance');
  }
  if (await isRoleTagDenied(context, tag)) throw refused('role tag is deny listed');
  if (tag.policies !== undefined && !roleTagPoliciesAllowed(tag.policies, role.token.policies)) {
    throw refused('policies on the role tag must be subset of policies on the role');
  }
  return {
    policies: tag.policies && inRoleSpelling(tag.policies, role.token.policies),
    maxTtl: tag.maxTtl,
    disallowReauthentication: tag.disallowReauthentication,
  };
}

function parseTag(value: string): ParsedRoleTag {
  try {
    return parseRoleTag(value);
  } catch (error) {
    throw refused(`invalid role tag on the instance: ${isStrongroomError(error) ? error.message : 'unparsable'}`);
  }
}

/** Tags hold policies lower-cased; the grant names them as the role does, so the caller's policy lookup finds them. */
function inRoleSpelling(tagPolicies: readonly string[], rolePolicies: readonly string[]): string[] {
  return tagPolicies.map(
    (policy) => rolePolicies.find((candidate) => candidate.toLowerCase() === policy.toLowerCase()) ?? policy,
  );
}
