import { AuthenticationRefused } from '../../lib/errors.js';
import type { AuthGrant, EngineRequest, EngineResponse } from '../../core/framework/request.js';
import { granted, responseForError } from '../../core/framework/response.js';
import { formatTimestamp } from '../../lib/time.js';
import { readAccessListEntry, updateAccessListEntry, type AccessListEntry } from '../lists/accesslist.js';
import { iamEntityFromCallerIdentity } from './common/iam-entity.js';
import type { AuthContext } from '../context/auth-context.js';
import { CloudScopes } from '../config/cloud-scope.js';
import { EC2_INSTANCE_ENTITY } from '../roles/role.js';
import { checkEc2Instance } from './ec2/ec2.js';
import { checkInferredInstance } from './iam/inference.js';
import { internalDataOf, type Ec2InternalData, type IamInternalData } from './common/internal-data.js';
import { grantedRole } from './common/login-role.js';
import { requirePrincipalBound } from './iam/principal-binding.js';
import { grantLifetimes, maxTtlBounds } from './common/ttl.js';

/** What onInternalError receives with a fault of renew(), which has no request of its own. */
const RENEW_REQUEST: EngineRequest = { method: 'POST', path: 'renew' };

/**
 * renew(grant) (as in Vault): re-checks that the grant still stands and answers `200 {auth}` with the
 * role's current lifetimes, 403 when it no longer stands, 502 when the provider cannot be asked, 400 for a grant this
 * engine did not issue. Server faults (storage) are 500 and go to onInternalError.
 */
export async function renew(context: AuthContext, grant: AuthGrant): Promise<EngineResponse> {
  try {
    const data = internalDataOf(grant);
    const lifetimes = data.auth_type === 'ec2' ? await renewEc2(context, data) : await renewIam(context, data);
    return granted({ ...grant, ...lifetimes });
  } catch (error) {
    const response = responseForError(error);
    if (response.status >= 500) context.reportInternalError(error, RENEW_REQUEST);
    return response;
  }
}

type Lifetimes = ReturnType<typeof grantLifetimes>;

/**
 * ec2: the role still exists (the same role), the instance still runs and meets the role's constraints, and the
 * access-list entry of the login is still there (deleting it ends renewals). The entry's expiry moves with the
 * renewal; the nonce and the role tag are not checked again (a deny-listed tag does not end issued grants).
 */
async function renewEc2(context: AuthContext, data: Ec2InternalData): Promise<Lifetimes> {
  const role = await grantedRole(context, data.role_name, data.role_id);
  const sameEntry = (entry: AccessListEntry | undefined): AccessListEntry => {
    if (entry?.creation_time !== data.access_list_created) {
      throw new AuthenticationRefused(
        `failed to verify the access list identity entry for instance ID: ${JSON.stringify(data.instance_id)}`,
      );
    }
    return entry;
  };
  sameEntry(await readAccessListEntry(context, data.instance_id));

  await checkEc2Instance(context, role, data.role_name, {
    instanceId: data.instance_id,
    accountId: data.account_id,
    region: data.region,
  });

  const { shortest, longest } = maxTtlBounds(context.mountMaxTtl, role.token.max_ttl, data.role_tag_max_ttl);
  const now = context.now().getTime();
  await updateAccessListEntry(context, data.instance_id, (current) => ({
    ...sameEntry(current),
    last_updated_time: formatTimestamp(now),
    expiration_time: formatTimestamp(now + longest * 1000),
  }));
  return grantLifetimes(role.token, shortest);
}

/**
 * iam: the role still exists (the same role), the principal is still bound to it (by unique id: a principal deleted
 * and created again is not), and a role inferring ec2 instances still finds the instance running and within its
 * constraints; a grant from before the role inferred instances cannot say which instance, so it ends.
 */
async function renewIam(context: AuthContext, data: IamInternalData): Promise<Lifetimes> {
  const role = await grantedRole(context, data.role_name, data.role_id);
  const scopes = new CloudScopes(context);
  if (role.inferred_entity_type === EC2_INSTANCE_ENTITY) {
    if (data.inferred_entity_type !== EC2_INSTANCE_ENTITY) {
      throw new AuthenticationRefused('the grant was issued before the role inferred ec2 instances; log in again');
    }
    const ref = { instanceId: data.inferred_entity_id, region: data.inferred_aws_region, accountId: data.account_id };
    await checkInferredInstance(context, scopes, role, data.role_name, ref);
  }
  const entity = iamEntityFromCallerIdentity({
    arn: data.client_arn,
    userId: data.client_user_id,
    accountId: data.account_id,
  });
  await requirePrincipalBound(
    context,
    scopes,
    role,
    entity,
    `role ${JSON.stringify(data.role_name)} no longer bound to ARN ${JSON.stringify(entity.canonicalArn)}`,
    {
      fresh: true,
    },
  );
  return grantLifetimes(role.token, maxTtlBounds(context.mountMaxTtl, role.token.max_ttl).shortest);
}
