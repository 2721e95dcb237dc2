import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import type { unchanged, UpdateResult } from '../../core/store/stored-json.js';
import type { AuthContext } from '../context/auth-context.js';
import { documentFolder, type StoredDocument } from '../context/stored-document.js';

const accessListEntry = z.object({
  /** The login role name as the client supplied it. */
  role: z.string(),
  /** The nonce later logins must present; '' once reauthentication is disabled. */
  client_nonce: z.string(),
  creation_time: z.string(),
  disallow_reauthentication: z.boolean(),
  /** The identity document's pendingTime, verbatim. */
  pending_time: z.string(),
  expiration_time: z.string(),
  last_updated_time: z.string(),
});

/**
 * What an ec2 login remembers about an instance (as in Vault), written by login and renewal, read and deleted by
 * administrators, removed by tidy once expiration_time plus the safety buffer has passed. Times are RFC 3339.
 *
 * @interface
 */
export type AccessListEntry = z.infer<typeof accessListEntry>;

/** The identity access list: one entry per instance id. */
export const accessListDocuments = documentFolder({ folder: 'identity-accesslist/', shape: accessListEntry });

const INSTANCE_ID = /^\w(?:[\w.-]*\w)?$/;

function accessListDocument(instanceId: string): StoredDocument<AccessListEntry> {
  if (!INSTANCE_ID.test(instanceId)) throw new InvalidRequest(`invalid instance ID ${JSON.stringify(instanceId)}`);
  return accessListDocuments.named(instanceId);
}

export async function readAccessListEntry(
  context: AuthContext,
  instanceId: string,
): Promise<AccessListEntry | undefined> {
  return context.read(accessListDocument(instanceId));
}

/**
 * Read-modify-write of one instance's entry, for login and renewal. `change` sees the current entry (undefined for a
 * first login) and answers the new one, `unchanged`, or undefined to remove it; it may throw to refuse the login. With
 * a storage offering compareAndPut, `change` runs again when another engine wrote the entry meanwhile, so two logins
 * of one instance can never both pass a nonce check against the same stored state.
 */
type AccessListChange = AccessListEntry | undefined | typeof unchanged;

export async function updateAccessListEntry(
  context: AuthContext,
  instanceId: string,
  change: (current: AccessListEntry | undefined) => AccessListChange | Promise<AccessListChange>,
): Promise<UpdateResult<AccessListEntry>> {
  return context.update(accessListDocument(instanceId), change);
}

export async function deleteAccessListEntry(context: AuthContext, instanceId: string): Promise<void> {
  await context.delete(accessListDocument(instanceId));
}

export function listAccessListInstanceIds(context: AuthContext): Promise<string[]> {
  return context.list(accessListDocuments);
}
