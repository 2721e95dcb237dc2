import { z } from 'zod';
import type { AuthContext } from '../context/auth-context.js';
import { documentFolder, type StoredDocument } from '../context/stored-document.js';
import { storedLegacyTokenFields, storedTokenSettings, tokenView } from './token-settings.js';

/** The bound constraint lists of a role, in the order Vault validates them. */
export const BOUND_LIST_FIELDS = [
  'bound_account_id',
  'bound_region',
  'bound_ami_id',
  'bound_iam_instance_profile_arn',
  'bound_ec2_instance_id',
  'bound_iam_role_arn',
  'bound_iam_principal_arn',
  'bound_vpc_id',
  'bound_subnet_id',
] as const;

export type BoundListField = (typeof BOUND_LIST_FIELDS)[number];

export const EC2_INSTANCE_ENTITY = 'ec2_instance';

const strings = z.array(z.string());
const boundLists = Object.fromEntries(BOUND_LIST_FIELDS.map((field) => [field, strings])) as Record<
  BoundListField,
  typeof strings
>;

const storedRole = z.object({
  ...boundLists,
  role_id: z.string(),
  auth_type: z.enum(['ec2', 'iam']),
  /** Unique ids resolved from the non-wildcard `bound_iam_principal_arn` entries, in their order. */
  bound_iam_principal_id: strings,
  /** '' or 'ec2_instance'. */
  inferred_entity_type: z.string(),
  inferred_aws_region: z.string(),
  resolve_aws_unique_ids: z.boolean(),
  /** The instance tag key that carries a role tag; '' disables role tags. */
  role_tag: z.string(),
  allow_instance_migration: z.boolean(),
  disallow_reauthentication: z.boolean(),
  hmac_key: z.string(),
  token: storedTokenSettings,
  legacy: storedLegacyTokenFields,
});

/** A stored role. `hmac_key` signs the role's tags and never leaves the engine. */
export type StoredRole = z.infer<typeof storedRole>;
export type AuthType = StoredRole['auth_type'];

/** The roles: one document per lower-cased role name. */
export const roleDocuments = documentFolder({ folder: 'role/', shape: storedRole });

/** Role names are case-insensitive everywhere, as in Vault: they are stored and compared lower-cased. */
export function normalizeRoleName(name: string): string {
  return name.toLowerCase();
}

/** The stored role of that name, in any casing. */
export function roleDocument(name: string): StoredDocument<StoredRole> {
  return roleDocuments.named(normalizeRoleName(name));
}

// The name rule of role paths. Names also arrive from elsewhere (a role tag, a login body): one breaking the rule was
// never stored, and as a storage key it could climb out of the role folder ('../config/client').
const ROLE_NAME = /^\w(?:[\w.-]*\w)?$/;

/** The role named `name` in any casing, or undefined; a name that breaks the name rule is not looked up. */
export function readRole(context: AuthContext, name: string): Promise<StoredRole | undefined> {
  return ROLE_NAME.test(name) ? context.read(roleDocument(name)) : Promise.resolve(undefined);
}

export function listRoleNames(context: AuthContext): Promise<string[]> {
  return context.list(roleDocuments);
}

/** Whether login checks instance constraints for this role: ec2 roles, and iam roles that infer an ec2 instance. */
export function checksInstanceConstraints(role: Pick<StoredRole, 'auth_type' | 'inferred_entity_type'>): boolean {
  return role.auth_type === 'ec2' || role.inferred_entity_type === EC2_INSTANCE_ENTITY;
}

/** What a read shows: everything but the HMAC key; lists are never null. */
export function roleView(role: StoredRole): Record<string, unknown> {
  const bounds = Object.fromEntries(BOUND_LIST_FIELDS.map((field) => [field, [...role[field]]]));
  return {
    auth_type: role.auth_type,
    ...bounds,
    bound_iam_principal_id: [...role.bound_iam_principal_id],
    inferred_entity_type: role.inferred_entity_type,
    inferred_aws_region: role.inferred_aws_region,
    resolve_aws_unique_ids: role.resolve_aws_unique_ids,
    role_id: role.role_id,
    role_tag: role.role_tag,
    allow_instance_migration: role.allow_instance_migration,
    disallow_reauthentication: role.disallow_reauthentication,
    ...tokenView(role.token, role.legacy),
  };
}
