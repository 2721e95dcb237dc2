import { AuthenticationRefused } from '../../../lib/errors.js';
import type { CloudScope, InstanceDescription } from '../../../ports/cloud.js';
import { matchesArnPattern } from './iam-entity.js';
import type { AuthContext } from '../../context/auth-context.js';
import { callCloud } from '../../context/cloud-call.js';
import type { BoundListField, StoredRole } from '../../roles/role.js';

/** The instance a login (ec2, or iam inferring an ec2 instance) is about, and the account its identity named. */
export interface InstanceSubject {
  instance: InstanceDescription;
  accountId: string;
}

interface ListConstraint {
  field: BoundListField;
  /** What the value is, for the message when the instance has none (a missing value is an unmet constraint). */
  label: string;
  value(subject: InstanceSubject): string | undefined;
  /** Bound ARNs match by trailing-`*` prefix, everything else exactly. */
  pattern?: boolean;
  refusal(value: string, role: string): string;
}

const q = JSON.stringify;

// In Vault's order, which decides the error reported when several constraints fail.
const LIST_CONSTRAINTS: readonly ListConstraint[] = [
  {
    field: 'bound_ec2_instance_id',
    label: 'instance ID',
    value: ({ instance }) => instance.instanceId,
    refusal: (value, role) => `instance ID ${q(value)} does not belong to the role ${q(role)}`,
  },
  {
    field: 'bound_account_id',
    label: 'account ID',
    value: ({ accountId }) => accountId,
    refusal: (value, role) => `account ID ${q(value)} does not belong to role ${q(role)}`,
  },
  {
    field: 'bound_ami_id',
    label: 'AMI ID',
    value: ({ instance }) => instance.imageId,
    refusal: (value, role) => `AMI ID ${q(value)} does not belong to role ${q(role)}`,
  },
  {
    field: 'bound_subnet_id',
    label: 'subnet ID',
    value: ({ instance }) => instance.subnetId,
    refusal: (value, role) => `subnet ID ${q(value)} does not satisfy the constraint on role ${q(role)}`,
  },
  {
    field: 'bound_vpc_id',
    label: 'VPC ID',
    value: ({ instance }) => instance.vpcId,
    refusal: (value, role) => `VPC ID ${q(value)} does not satisfy the constraint on role ${q(role)}`,
  },
  {
    field: 'bound_iam_instance_profile_arn',
    label: 'IAM instance profile',
    value: ({ instance }) => instance.iamInstanceProfileArn,
    pattern: true,
    refusal: (value, role) => `IAM instance profile ARN ${q(value)} does not satisfy the constraint role ${q(role)}`,
  },
];

function satisfies(constraint: Pick<ListConstraint, 'pattern'>, bound: readonly string[], value: string): boolean {
  return bound.some((entry) => (constraint.pattern ? matchesArnPattern(entry, value) : entry === value));
}

/** bound_region, checked against the signed identity document's region (ec2 logins only). */
export function checkBoundRegion(role: StoredRole, roleName: string, region: string): void {
  if (role.bound_region.length > 0 && !role.bound_region.includes(region)) {
    throw new AuthenticationRefused(`Region ${q(region)} does not satisfy the constraint on role ${q(roleName)}`);
  }
}

/**
 * Every instance constraint of the role (as in Vault): each non-empty
 * bound list must contain the instance's value. A failure is AuthenticationRefused (403) with `prefix`.
 */
export async function checkInstanceConstraints(
  context: AuthContext,
  scope: CloudScope,
  role: StoredRole,
  roleName: string,
  subject: InstanceSubject,
  prefix: string,
): Promise<void> {
  const refused = (detail: string) => new AuthenticationRefused(`${prefix}: ${detail}`);
  const missing = (label: string) =>
    refused(`the instance has no ${label}, so it does not satisfy the constraint on role ${q(roleName)}`);
  for (const constraint of LIST_CONSTRAINTS) {
    const bound = role[constraint.field];
    if (bound.length === 0) continue;
    const value = constraint.value(subject);
    if (!value) throw missing(constraint.label);
    if (!satisfies(constraint, bound, value)) throw refused(constraint.refusal(value, roleName));
  }
  if (role.bound_iam_role_arn.length > 0) {
    const profileArn = subject.instance.iamInstanceProfileArn;
    if (!profileArn) throw missing('IAM instance profile');
    const roleArn = await instanceRoleArn(context, scope, profileArn, refused);
    if (!satisfies({ pattern: true }, role.bound_iam_role_arn, roleArn)) {
      throw refused(`IAM role ARN ${q(roleArn)} does not satisfy the constraint role ${q(roleName)}`);
    }
  }
}

/** The one role of the instance's profile (GetInstanceProfile in the instance's account). */
async function instanceRoleArn(
  context: AuthContext,
  scope: CloudScope,
  profileArn: string,
  refused: (detail: string) => Error,
): Promise<string> {
  const profile = await callCloud('IAM role ARN could not be fetched', () =>
    context.cloud.getInstanceProfile(scope, profileArn),
  );
  if (!profile) throw refused(`IAM instance profile ${q(profileArn)} was not found`);
  const [roleArn, ...others] = profile.roleArns;
  if (roleArn === undefined || others.length > 0) {
    throw refused(
      `IAM instance profile ${q(profileArn)} must hold exactly one role, it holds ${profile.roleArns.length}`,
    );
  }
  return roleArn;
}
