import { z } from 'zod';
import type { StoredShapes } from '../core/stored-json.js';

/**
 * Where the auth method's documents are stored, and their shapes, checked whenever one is read: a document of the
 * wrong shape is a 500 naming its key, never a TypeError in the middle of a login. Every document is an object; the
 * ones a login relies on are checked field by field. Fields added by later versions of the format are allowed. This
 * module depends on no other of the auth method's, so that every one of them (AuthContext included) can use it.
 */

/** Storage folder of the roles, relative to the storage prefix; one document per lower-cased role name. */
export const ROLE_FOLDER = 'role/';

/** Storage folder of the identity access list, relative to the storage prefix; one document per instance id. */
export const ACCESSLIST_FOLDER = 'identity-accesslist/';

/**
 * Storage folder of the role-tag deny list, relative to the storage prefix. Each entry's key is the unpadded base64url
 * of the tag's canonical form (see canonicalRoleTag), so the key is one path segment and every spelling of a tag finds
 * the same entry.
 */
export const DENYLIST_FOLDER = 'roletag-denylist/';

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

const strings = z.array(z.string());
const seconds = z.number();

const token = z.object({
  ttl: seconds,
  max_ttl: seconds,
  period: seconds,
  explicit_max_ttl: seconds,
  policies: strings,
  bound_cidrs: strings,
  no_default_policy: z.boolean(),
  num_uses: z.number().int(),
  type: z.enum(['default', 'service', 'batch']),
});

const role = z.object({
  ...Object.fromEntries(BOUND_LIST_FIELDS.map((field) => [field, strings])),
  role_id: z.string(),
  auth_type: z.string(),
  bound_iam_principal_id: strings,
  inferred_entity_type: z.string(),
  inferred_aws_region: z.string(),
  resolve_aws_unique_ids: z.boolean(),
  role_tag: z.string(),
  allow_instance_migration: z.boolean(),
  disallow_reauthentication: z.boolean(),
  hmac_key: z.string(),
  token,
  legacy: z.object({ ttl: seconds, max_ttl: seconds, period: seconds, policies: strings }),
});

const accessListEntry = z.object({
  role: z.string(),
  client_nonce: z.string(),
  creation_time: z.string(),
  disallow_reauthentication: z.boolean(),
  pending_time: z.string(),
  expiration_time: z.string(),
  last_updated_time: z.string(),
});

const denyListEntry = z.object({ creation_time: z.string(), expiration_time: z.string() });

const anyObject = z.record(z.string(), z.unknown());

export function authStoredShapes(prefix: string): StoredShapes {
  return (key) => {
    if (!key.startsWith(prefix)) return undefined;
    const rest = key.slice(prefix.length);
    if (rest.startsWith(ROLE_FOLDER)) return role;
    if (rest.startsWith(ACCESSLIST_FOLDER)) return accessListEntry;
    if (rest.startsWith(DENYLIST_FOLDER)) return denyListEntry;
    return anyObject;
  };
}
