import { z } from 'zod';
import { InvalidRequest } from '../../../lib/errors.js';
import { isPlainObject } from '../../../core/framework/fields.js';

/**
 * What a grant's `internal_data` carries from login to renew(): who was authenticated and against which role. The
 * caller keeps it opaque; renewal dispatches on `auth_type` here, never on the metadata, which an operator's
 * identity configuration may leave without `auth_type` (as in Vault).
 */

const text = z.string().max(2048);

const ec2InternalData = z.object({
  auth_type: z.literal('ec2'),
  instance_id: text,
  region: text,
  account_id: text,
  /** The login role name as supplied. */
  role_name: text,
  role_id: text,
  /** Seconds; 0 without a role tag. */
  role_tag_max_ttl: z.number().int().nonnegative(),
  /** The access-list entry's creation_time: a renewal needs that very entry, not one a later login made. */
  access_list_created: text,
});

const iamInternalData = z.object({
  auth_type: z.literal('iam'),
  role_name: text,
  role_id: text,
  /** The ARN as STS returned it, and the unique part of its UserId. */
  client_arn: text,
  client_user_id: text,
  canonical_arn: text,
  account_id: text,
  /** '' unless the role inferred an ec2 instance at login. */
  inferred_entity_type: text,
  inferred_entity_id: text,
  inferred_aws_region: text,
});

const internalData = z.discriminatedUnion('auth_type', [ec2InternalData, iamInternalData]);

export type Ec2InternalData = z.output<typeof ec2InternalData>;
export type IamInternalData = z.output<typeof iamInternalData>;
export type InternalData = z.output<typeof internalData>;

/** The internal data of a grant handed to renew(); anything this engine did not issue is InvalidRequest (400). */
export function internalDataOf(grant: unknown): InternalData {
  const data = isPlainObject(grant) ? grant.internal_data : undefined;
  const parsed = internalData.safeParse(data);
  if (!parsed.success)
    throw new InvalidRequest('the grant was not issued by this auth method: its internal_data is missing or malformed');
  return parsed.data;
}
