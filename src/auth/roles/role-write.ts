import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { formatDuration } from '../../lib/duration.js';
import { InvalidRequest } from '../../lib/errors.js';
import { bool, str, stringList } from '../../core/framework/fields.js';
import {
  BOUND_LIST_FIELDS,
  checksInstanceConstraints,
  EC2_INSTANCE_ENTITY,
  type AuthType,
  type BoundListField,
  type StoredRole,
} from './role.js';
import { applyTokenFields, DEFAULT_TOKEN_SETTINGS, NO_LEGACY_FIELDS, tokenFieldShape } from './token-settings.js';

/** The longest role_tag key EC2 accepts. */
const MAX_ROLE_TAG_KEY = 127;

const ON_INSTANCES = 'For ec2 roles, and iam roles inferring `ec2_instance`.';
const PREFIX_WILDCARD = 'An entry ending in `*` matches by prefix.';

const BOUND_LISTS: Readonly<Record<BoundListField, string>> = {
  bound_account_id: `Accounts the instance must belong to. ${ON_INSTANCES}`,
  bound_region: "Regions the instance's identity document must name. For ec2 roles only.",
  bound_ami_id: `AMIs the instance must run. ${ON_INSTANCES}`,
  bound_iam_instance_profile_arn: `Instance profiles the instance must have. ${PREFIX_WILDCARD} ${ON_INSTANCES}`,
  bound_ec2_instance_id: `The instances that may log in. ${ON_INSTANCES}`,
  bound_iam_role_arn: `Roles the instance's profile must hold. ${PREFIX_WILDCARD} ${ON_INSTANCES}`,
  bound_iam_principal_arn: `The iam principals that may log in. ${PREFIX_WILDCARD} For iam roles only.`,
  bound_vpc_id: `VPCs the instance must be in. ${ON_INSTANCES}`,
  bound_subnet_id: `Subnets the instance must be in. ${ON_INSTANCES}`,
};

const boundListShape = Object.fromEntries(
  BOUND_LIST_FIELDS.map((field) => [
    field,
    stringList().optional().meta({ description: BOUND_LISTS[field], default: [] }),
  ]),
) as { [K in BoundListField]: z.ZodOptional<ReturnType<typeof stringList>> };

export const roleFields = z.object({
  auth_type: str({ maxLength: 32 }).optional().meta({
    description: 'How instances log in: `ec2` or `iam`. It never changes once the role exists.',
    default: 'iam',
  }),
  ...boundListShape,
  inferred_entity_type: str({ maxLength: 64 }).optional().meta({
    description:
      '`ec2_instance`: an iam login is held to the instance constraints too, the instance being the one whose profile signed (iam roles; needs `inferred_aws_region`).',
    default: '',
  }),
  inferred_aws_region: str({ maxLength: 64 }).optional().meta({
    description: 'The region the inferred instance is looked up in; only with `inferred_entity_type`.',
    default: '',
  }),
  resolve_aws_unique_ids: bool().optional().meta({
    description:
      'Binds `bound_iam_principal_arn` to the unique ids of the principals, so that one deleted and created again under its name no longer matches. Cannot be switched off.',
    default: true,
  }),
  role_tag: str({ maxLength: 4096 }).optional().meta({
    description:
      'The key of the instance tag that carries a role tag; empty: role tags are off. For ec2 roles only; at most 127 characters.',
    default: '',
  }),
  allow_instance_migration: bool().optional().meta({
    description:
      'An instance may log in again after moving to another host (a newer `pendingTime`). For ec2 roles only.',
    default: false,
  }),
  disallow_reauthentication: bool().optional().meta({
    description: 'Each instance may log in once only. For ec2 roles only.',
    default: false,
  }),
  ...tokenFieldShape,
});

export type RoleFields = z.output<typeof roleFields>;

function newRole(authType: AuthType): StoredRole {
  const bounds = Object.fromEntries(BOUND_LIST_FIELDS.map((field) => [field, [] as string[]])) as Record<
    BoundListField,
    string[]
  >;
  return {
    role_id: randomUUID(),
    auth_type: authType,
    ...bounds,
    bound_iam_principal_id: [],
    inferred_entity_type: '',
    inferred_aws_region: '',
    resolve_aws_unique_ids: true,
    role_tag: '',
    allow_instance_migration: false,
    disallow_reauthentication: false,
    hmac_key: randomBytes(32).toString('base64url'),
    token: { ...DEFAULT_TOKEN_SETTINGS, policies: [], bound_cidrs: [] },
    legacy: { ...NO_LEGACY_FIELDS, policies: [] },
  };
}

function authTypeOf(current: StoredRole | undefined, supplied: string | undefined): AuthType {
  if (current) {
    if (supplied !== undefined && supplied !== current.auth_type)
      throw new InvalidRequest('changing auth_type on a role is not allowed');
    return current.auth_type;
  }
  if (supplied === undefined) return 'iam';
  if (supplied !== 'ec2' && supplied !== 'iam') throw new InvalidRequest(`unrecognized auth_type: ${supplied}`);
  return supplied;
}

function checkInference(role: StoredRole): void {
  if (role.inferred_entity_type === '') {
    if (role.inferred_aws_region !== '')
      throw new InvalidRequest('specified inferred_aws_region but not inferred_entity_type');
    return;
  }
  if (role.auth_type !== 'iam')
    throw new InvalidRequest("specified inferred_entity_type but didn't allow iam auth_type");
  if (role.inferred_entity_type !== EC2_INSTANCE_ENTITY) {
    throw new InvalidRequest(`specified invalid inferred_entity_type: ${role.inferred_entity_type}`);
  }
  if (role.inferred_aws_region === '')
    throw new InvalidRequest('specified inferred_entity_type but not inferred_aws_region');
}

/** Every configured constraint must be one that login checks for this role; at least one must be configured. */
function checkBounds(role: StoredRole, instanceBindsAllowed: boolean): void {
  let configured = 0;
  for (const field of BOUND_LIST_FIELDS) {
    if (role[field].length === 0) continue;
    configured += 1;
    if (field === 'bound_region') {
      if (role.auth_type !== 'ec2') throw new InvalidRequest('specified bound_region but not specifying ec2 auth_type');
    } else if (field === 'bound_iam_principal_arn') {
      if (role.auth_type !== 'iam')
        throw new InvalidRequest('specified bound_iam_principal_arn but not specifying iam auth_type');
    } else if (!instanceBindsAllowed) {
      throw new InvalidRequest(
        `specified ${field} but not specifying ec2 auth_type or inferring ${EC2_INSTANCE_ENTITY}`,
      );
    }
  }
  if (configured === 0) throw new InvalidRequest('at least one bound parameter should be specified on the role');
}

/** The ec2-only switches: setting one on another auth type is refused (sending its default `false` is harmless). */
function applyEc2Switches(role: StoredRole, fields: RoleFields): void {
  for (const field of ['disallow_reauthentication', 'allow_instance_migration'] as const) {
    const value = fields[field];
    if (value === undefined) continue;
    if (value && role.auth_type !== 'ec2') throw new InvalidRequest(`specified ${field} when not using ec2 auth type`);
    role[field] = value;
  }
  if (role.allow_instance_migration && role.disallow_reauthentication) {
    throw new InvalidRequest('cannot specify both disallow_reauthentication=true and allow_instance_migration=true');
  }
  if (fields.role_tag !== undefined) {
    if (fields.role_tag !== '' && role.auth_type !== 'ec2') {
      throw new InvalidRequest('tried to enable role_tag when not using ec2 auth method');
    }
    if (fields.role_tag.length > MAX_ROLE_TAG_KEY) {
      throw new InvalidRequest(`length of role tag exceeds the EC2 key limit of ${MAX_ROLE_TAG_KEY} characters`);
    }
    role.role_tag = fields.role_tag;
  }
}

function applyTokenLimits(role: StoredRole, mountMaxTtl: number): string[] {
  if (role.token.period > mountMaxTtl) {
    const period = formatDuration(role.token.period);
    throw new InvalidRequest(
      `period of '${period}' is greater than the backend's maximum lease TTL of '${formatDuration(mountMaxTtl)}'`,
    );
  }
  if (role.token.max_ttl > mountMaxTtl) {
    return [
      `Given max ttl of ${role.token.max_ttl} seconds greater than current mount/system default of ${mountMaxTtl} seconds; ` +
        'max ttl will be capped at login time',
    ];
  }
  return [];
}

/**
 * Applies a role write to the stored role (undefined: a create) and validates the result. Principal ARNs are not
 * resolved here (see resolvePrincipalIds), so a refused write makes no cloud call.
 */
export function applyRoleFields(
  current: StoredRole | undefined,
  fields: RoleFields,
  mountMaxTtl: number,
): { role: StoredRole; warnings: string[] } {
  const authType = authTypeOf(current, fields.auth_type);
  const role: StoredRole = current ? structuredClone(current) : newRole(authType);
  for (const field of BOUND_LIST_FIELDS) {
    const supplied = fields[field];
    if (supplied !== undefined) role[field] = supplied;
  }
  if (fields.bound_iam_principal_arn !== undefined) role.bound_iam_principal_id = [];

  if (fields.resolve_aws_unique_ids !== undefined) {
    if (current?.resolve_aws_unique_ids && !fields.resolve_aws_unique_ids) {
      throw new InvalidRequest('changing resolve_aws_unique_ids from true to false is not allowed');
    }
    role.resolve_aws_unique_ids = fields.resolve_aws_unique_ids;
  }
  if (fields.inferred_entity_type !== undefined) role.inferred_entity_type = fields.inferred_entity_type;
  if (fields.inferred_aws_region !== undefined) role.inferred_aws_region = fields.inferred_aws_region;

  checkInference(role);
  checkBounds(role, checksInstanceConstraints(role));
  applyEc2Switches(role, fields);
  const token = applyTokenFields(role, fields);
  role.token = token.token;
  role.legacy = token.legacy;
  return { role, warnings: applyTokenLimits(role, mountMaxTtl) };
}
