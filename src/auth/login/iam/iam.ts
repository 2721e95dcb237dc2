import { CloudUnavailable } from '../../../lib/errors.js';
import type { AuthGrant } from '../../../core/framework/request.js';
import { iamEntityFromCallerIdentity, type IamEntity } from '../common/iam-entity.js';
import type { AuthContext } from '../../context/auth-context.js';
import { CloudScopes } from '../../config/cloud-scope.js';
import { readIdentityConfig, type IamAlias } from '../../config/identity-config.js';
import type { IamLoginFields } from './request.js';
import { EC2_INSTANCE_ENTITY } from '../../roles/role.js';
import { buildGrant } from '../common/grant.js';
import { checkInferredInstance } from './inference.js';
import { loginRole } from '../common/login-role.js';
import { requirePrincipalBound } from './principal-binding.js';
import { authenticateWithSts } from './sts.js';
import { maxTtlBounds } from '../common/ttl.js';

export interface IamLoginRequestFields extends IamLoginFields {
  role?: string;
}

/**
 * The iam login (as in Vault): STS authenticates the caller first (nothing is looked up for a caller it has not vouched for), then the role (named by the
 * request, else after the principal's friendly name), the principal binding and, for a role inferring ec2
 * instances, the instance. Nothing is stored.
 */
export async function iamLogin(
  context: AuthContext,
  fields: IamLoginRequestFields,
  remoteAddress: string | undefined,
): Promise<AuthGrant> {
  const scopes = new CloudScopes(context);
  const identity = await authenticateWithSts(context, scopes, fields);
  const entity = iamEntityFromCallerIdentity(identity);
  if (entity.accountId !== identity.accountId) {
    throw new CloudUnavailable('error making upstream request: STS answered an Arn and an Account that disagree');
  }
  const roleName = fields.role || entity.friendlyName;
  const role = await loginRole(context, roleName, 'iam', remoteAddress);
  await requirePrincipalBound(
    context,
    scopes,
    role,
    entity,
    `IAM Principal ${JSON.stringify(entity.arn)} does not belong to the role ${JSON.stringify(roleName)}`,
  );

  const inferring = role.inferred_entity_type === EC2_INSTANCE_ENTITY;
  const inferred = inferring
    ? { type: EC2_INSTANCE_ENTITY, id: entity.sessionName, region: role.inferred_aws_region }
    : { type: '', id: '', region: '' };
  if (inferring) {
    await checkInferredInstance(context, scopes, role, roleName, {
      instanceId: inferred.id,
      region: inferred.region,
      accountId: entity.accountId,
    });
  }
  const identityConfig = await readIdentityConfig(context);
  return buildGrant({
    role,
    policies: role.token.policies,
    maxTtl: maxTtlBounds(context.mountMaxTtl, role.token.max_ttl).shortest,
    fixedMetadata: new Map([['role_id', role.role_id]]),
    selectable: new Map([
      ['account_id', entity.accountId],
      ['auth_type', 'iam'],
      ['canonical_arn', entity.canonicalArn],
      ['client_arn', entity.arn],
      ['client_user_id', entity.uniqueId],
      ['inferred_aws_region', inferred.region],
      ['inferred_entity_id', inferred.id],
      ['inferred_entity_type', inferred.type],
    ]),
    selected: identityConfig.iam_metadata,
    aliasName: iamAliasName(identityConfig.iam_alias, role.role_id, entity),
    displayName: entity.displayName,
    internalData: {
      auth_type: 'iam',
      role_name: roleName,
      role_id: role.role_id,
      client_arn: entity.arn,
      client_user_id: entity.uniqueId,
      canonical_arn: entity.canonicalArn,
      account_id: entity.accountId,
      inferred_entity_type: inferred.type,
      inferred_entity_id: inferred.id,
      inferred_aws_region: inferred.region,
    },
  });
}

function iamAliasName(alias: IamAlias, roleId: string, entity: IamEntity): string {
  if (alias === 'unique_id') return entity.uniqueId;
  if (alias === 'full_arn') return entity.arn;
  return roleId;
}
