import { AuthenticationRefused } from '../../../lib/errors.js';
import type { InstanceDescription } from '../../../ports/cloud.js';
import type { AuthContext } from '../../context/auth-context.js';
import type { CloudScopes } from '../../config/cloud-scope.js';
import type { StoredRole } from '../../roles/role.js';
import { checkInstanceConstraints } from '../common/bound-constraints.js';
import { describeRunningInstance } from '../common/instance.js';

/** Prefix of bound-constraint failures of an inferred instance (Vault's spelling). */
const VALIDATION_PREFIX = 'error validating instance';

export interface InferredInstanceRef {
  instanceId: string;
  region: string;
  /** The account STS reported for the caller: the instance must be in it. */
  accountId: string;
}

/**
 * The ec2 instance an iam login of a role inferring `ec2_instance` stands for (as in Vault): instance-profile
 * credentials carry the instance id as the assumed role's session name. The instance must be running in the role's
 * inferred_aws_region, in the caller's own account, and meet every instance constraint of the role.
 */
export async function checkInferredInstance(
  context: AuthContext,
  scopes: CloudScopes,
  role: StoredRole,
  roleName: string,
  ref: InferredInstanceRef,
): Promise<InstanceDescription> {
  const what = `failed to verify ${ref.instanceId || 'the caller'} as a valid EC2 instance in region ${ref.region}`;
  if (ref.instanceId === '')
    throw new AuthenticationRefused(`${what}: it is not an assumed role whose session name is an instance ID`);
  const scope = await scopes.resolve({ region: ref.region, accountId: ref.accountId });
  const instance = await describeRunningInstance(context, scope, ref.instanceId, ref.accountId, what);
  await checkInstanceConstraints(
    context,
    scope,
    role,
    roleName,
    { instance, accountId: ref.accountId },
    VALIDATION_PREFIX,
  );
  return instance;
}
