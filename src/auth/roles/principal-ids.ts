import { AuthenticationRefused, InvalidRequest, isStrongroomError } from '../../lib/errors.js';
import { parsePrincipalArn, type PrincipalArn } from '../../lib/arn.js';
import type { AuthContext } from '../context/auth-context.js';
import { callCloud } from '../context/cloud-call.js';
import { CloudScopes } from '../config/cloud-scope.js';
import type { StoredRole } from './role.js';

/** The provider's unique id (AIDA.../AROA...) of the user or role a bound ARN names. */
async function resolvePrincipalId(context: AuthContext, scopes: CloudScopes, arn: string): Promise<string> {
  const what = `unable to resolve ARN ${JSON.stringify(arn)} to internal ID`;
  let principal: PrincipalArn;
  try {
    principal = parsePrincipalArn(arn);
  } catch (error) {
    throw new InvalidRequest(`${what}: ${isStrongroomError(error) ? error.message : 'invalid ARN'}`);
  }
  if (principal.type !== 'user' && principal.type !== 'role') {
    throw new InvalidRequest(`${what}: unrecognized principal type ${JSON.stringify(principal.type)}`);
  }
  const scope = await scopes.resolve({ accountId: principal.accountId });
  // The provider refusing to act for the principal's account is a configuration problem here (config/sts), not a
  // refused login.
  const found = await callCloud(what, () => context.cloud.getPrincipal(scope, arn)).catch((error: unknown) => {
    throw error instanceof AuthenticationRefused ? new InvalidRequest(error.message, { cause: error }) : error;
  });
  if (!found) throw new InvalidRequest(`${what}: no such ${principal.type}`);
  return found.uniqueId;
}

/**
 * Fills the resolved ids of an iam role with resolve_aws_unique_ids on, when they are missing (a new principal list,
 * or resolution just switched on). Wildcard entries match by ARN at login and are not resolved. Calls only read from
 * the provider, so running this again after a storage conflict is harmless.
 */
export async function resolvePrincipalIds(context: AuthContext, role: StoredRole): Promise<StoredRole> {
  if (role.auth_type !== 'iam' || !role.resolve_aws_unique_ids || role.bound_iam_principal_id.length > 0) return role;
  const scopes = new CloudScopes(context);
  const ids: string[] = [];
  for (const arn of role.bound_iam_principal_arn) {
    if (!arn.endsWith('*')) ids.push(await resolvePrincipalId(context, scopes, arn));
  }
  return { ...role, bound_iam_principal_id: ids };
}
