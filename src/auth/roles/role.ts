import type { AuthContext } from '../context/auth-context.js';
import { BOUND_LIST_FIELDS, ROLE_FOLDER } from '../stored-shapes.js';
import { tokenView, type LegacyTokenFields, type TokenSettings } from './token-settings.js';

/** Version of the stored role shape, for future upgrades of stored roles. */
export const ROLE_SCHEMA_VERSION = 1;

export type AuthType = 'ec2' | 'iam';
export const EC2_INSTANCE_ENTITY = 'ec2_instance';

export type BoundListField = (typeof BOUND_LIST_FIELDS)[number];

/** A stored role. `hmac_key` signs the role's tags and never leaves the engine. */
export interface StoredRole extends Record<BoundListField, string[]> {
  version: number;
  role_id: string;
  auth_type: AuthType;
  /** Unique ids resolved from the non-wildcard `bound_iam_principal_arn` entries, in their order. */
  bound_iam_principal_id: string[];
  /** '' or 'ec2_instance'. */
  inferred_entity_type: string;
  inferred_aws_region: string;
  resolve_aws_unique_ids: boolean;
  /** The instance tag key that carries a role tag; '' disables role tags. */
  role_tag: string;
  allow_instance_migration: boolean;
  disallow_reauthentication: boolean;
  hmac_key: string;
  token: TokenSettings;
  legacy: LegacyTokenFields;
}

/** Role names are case-insensitive everywhere, as in Vault: they are stored and compared lower-cased. */
export function normalizeRoleName(name: string): string {
  return name.toLowerCase();
}

export function roleKey(name: string): string {
  return ROLE_FOLDER + normalizeRoleName(name);
}

// The name rule of role paths. Names also arrive from elsewhere (a role tag, a login body): one breaking the rule was
// never stored, and as a storage key it could climb out of the role folder ('../config/client').
const ROLE_NAME = /^\w(?:[\w.-]*\w)?$/;

/** The role named `name` in any casing, or undefined; a name that breaks the name rule is not looked up. */
export function readRole(context: AuthContext, name: string): Promise<StoredRole | undefined> {
  return ROLE_NAME.test(name) ? context.get<StoredRole>(roleKey(name)) : Promise.resolve(undefined);
}

export async function listRoleNames(context: AuthContext): Promise<string[]> {
  return (await context.list(ROLE_FOLDER)).filter((name) => !name.endsWith('/'));
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
