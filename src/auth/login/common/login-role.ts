import { AuthenticationRefused, InvalidRequest } from '../../../lib/errors.js';
import type { AuthContext } from '../../context/auth-context.js';
import { cidrsContain } from '../../roles/cidr.js';
import { readRole, type AuthType, type StoredRole } from '../../roles/role.js';

/**
 * The role an authenticated caller logs in against (as in Vault): it must exist, accept the caller's address
 * (token_bound_cidrs, 403) and serve this login type. Only called once the caller is authenticated.
 */
export async function loginRole(
  context: AuthContext,
  name: string,
  authType: AuthType,
  remoteAddress: string | undefined,
): Promise<StoredRole> {
  const role = await readRole(context, name);
  if (!role) {
    // Vault quotes the name for ec2 logins only; clients may match either message.
    throw new InvalidRequest(`entry for role ${authType === 'ec2' ? JSON.stringify(name) : name} not found`);
  }
  const cidrs = role.token.bound_cidrs;
  if (cidrs.length > 0 && (remoteAddress === undefined || !cidrsContain(cidrs, remoteAddress))) {
    throw new AuthenticationRefused("permission denied: the client address is not within the role's token_bound_cidrs");
  }
  if (role.auth_type !== authType) throw new InvalidRequest(`auth method ${authType} not allowed for role ${name}`);
  return role;
}

/**
 * The role a grant was issued for, at renewal: still stored under that name and still the same role (a role deleted
 * and created again has a new role_id, and grants of the old one end with it).
 */
export async function grantedRole(context: AuthContext, name: string, roleId: string): Promise<StoredRole> {
  const role = await readRole(context, name);
  if (!role) throw new AuthenticationRefused('role entry not found');
  if (role.role_id !== roleId)
    throw new AuthenticationRefused(`role ${JSON.stringify(name)} is not the role the grant was issued for`);
  return role;
}
