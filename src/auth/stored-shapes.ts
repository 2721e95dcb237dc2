import { z } from 'zod';
import type { StoredShapes } from '../core/stored-json.js';
import { ACCESSLIST_FOLDER } from './accesslist.js';
import { DENYLIST_FOLDER } from './denylist.js';
import { BOUND_LIST_FIELDS, ROLE_FOLDER } from './roles/role.js';

/**
 * The shapes of the auth method's stored documents, checked whenever one is read: a document of the wrong shape is a
 * 500 naming its key, never a TypeError in the middle of a login. Every document is an object; the ones a login
 * relies on are checked field by field. Fields added by later versions of the format are allowed.
 */

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
