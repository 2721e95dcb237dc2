import { AuthenticationRefused } from '../../../lib/errors.js';
import { matchesArnPattern, type IamEntity } from '../common/iam-entity.js';
import type { AuthContext } from '../../context/auth-context.js';
import { callCloud } from '../../context/cloud-call.js';
import type { CloudScopes } from '../../config/cloud-scope.js';
import type { StoredRole } from '../../roles/role.js';
import { PrincipalArnCache } from '../../context/principal-arn-cache.js';

/**
 * Whether an authenticated iam principal may use the role (as in Vault). Any of: its unique id is among the ids
 * resolved from the role's bound ARNs (resolve_aws_unique_ids, so a principal deleted and created again under the
 * same name no longer matches); without resolution, its canonical ARN is bound exactly; or its full ARN matches a
 * bound wildcard. A role without bound principals admits every authenticated principal (possible only with
 * inferencing).
 */
async function isPrincipalBound(
  context: AuthContext,
  scopes: CloudScopes,
  role: StoredRole,
  entity: IamEntity,
  fresh: boolean,
): Promise<boolean> {
  const bound = role.bound_iam_principal_arn;
  if (bound.length === 0) return true;
  if (role.bound_iam_principal_id.includes(entity.uniqueId)) return true;
  if (!role.resolve_aws_unique_ids && bound.includes(entity.canonicalArn)) return true;
  const wildcards = bound.filter((arn) => arn.length >= 2 && arn.endsWith('*'));
  if (wildcards.length === 0) return false;
  const fullArn = await fullArnOf(context, scopes, entity, fresh);
  return fullArn !== undefined && wildcards.some((pattern) => matchesArnPattern(pattern, fullArn));
}

/**
 * The principal's ARN with its IAM path, which wildcards match against. STS reports a user's full ARN, but an assumed
 * role's without the role's path, so a role is looked up in IAM; a role of that name that is not the caller's (a
 * different unique id) does not count. A found ARN is reused for a short while (PrincipalArnCache), so a fleet
 * logging in together makes one IAM call per principal rather than one per login.
 */
async function fullArnOf(
  context: AuthContext,
  scopes: CloudScopes,
  entity: IamEntity,
  fresh: boolean,
): Promise<string | undefined> {
  if (entity.type === 'user') return entity.arn;
  if (entity.type !== 'assumed-role' && entity.type !== 'role') return undefined;
  const scope = await scopes.resolve({ accountId: entity.accountId });
  const key = PrincipalArnCache.key(scope, entity.canonicalArn, entity.uniqueId);
  const cached = fresh ? undefined : context.principalArns.get(key, context.now().getTime());
  if (cached !== undefined) return cached;
  const found = await callCloud(`error looking up full ARN of entity ${JSON.stringify(entity.canonicalArn)}`, () =>
    context.cloud.getPrincipal(scope, entity.canonicalArn),
  );
  if (found?.uniqueId !== entity.uniqueId) {
    // The name now belongs to another principal (or none): logins must not keep matching on an older answer.
    context.principalArns.forget(key);
    return undefined;
  }
  context.principalArns.remember(key, found.arn, context.now().getTime());
  return found.arn;
}

/**
 * Refuses a principal the role does not admit. `fresh` (renewals) always asks IAM: a renewal is the re-check that a
 * grant still stands, rare next to logins, so it does not take a kept answer on trust; it refreshes it for logins.
 */
export async function requirePrincipalBound(
  context: AuthContext,
  scopes: CloudScopes,
  role: StoredRole,
  entity: IamEntity,
  refusal: string,
  options: { fresh?: boolean } = {},
): Promise<void> {
  if (!(await isPrincipalBound(context, scopes, role, entity, options.fresh === true)))
    throw new AuthenticationRefused(refusal);
}
