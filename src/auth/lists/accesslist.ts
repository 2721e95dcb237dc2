import { InvalidRequest } from '../../core/errors.js';
import type { unchanged, UpdateResult } from '../../core/stored-json.js';
import type { AuthContext } from '../context/auth-context.js';
import { ACCESSLIST_FOLDER } from '../stored-shapes.js';

/**
 * What an ec2 login remembers about an instance (as in Vault), written by login and renewal, read and deleted by
 * administrators, removed by tidy once expiration_time plus the safety buffer has passed. Times are RFC 3339.
 */
export interface AccessListEntry {
  /** The login role name as the client supplied it. */
  role: string;
  /** The nonce later logins must present; '' once reauthentication is disabled. */
  client_nonce: string;
  creation_time: string;
  disallow_reauthentication: boolean;
  /** The identity document's pendingTime, verbatim. */
  pending_time: string;
  expiration_time: string;
  last_updated_time: string;
}

const INSTANCE_ID = /^\w(?:[\w.-]*\w)?$/;

function accessListKey(instanceId: string): string {
  if (!INSTANCE_ID.test(instanceId)) throw new InvalidRequest(`invalid instance ID ${JSON.stringify(instanceId)}`);
  return ACCESSLIST_FOLDER + instanceId;
}

export async function readAccessListEntry(context: AuthContext, instanceId: string): Promise<AccessListEntry | undefined> {
  return context.get<AccessListEntry>(accessListKey(instanceId));
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
  return context.update<AccessListEntry>(accessListKey(instanceId), change);
}

export async function deleteAccessListEntry(context: AuthContext, instanceId: string): Promise<void> {
  await context.delete(accessListKey(instanceId));
}

export async function listAccessListInstanceIds(context: AuthContext): Promise<string[]> {
  return (await context.list(ACCESSLIST_FOLDER)).filter((name) => !name.endsWith('/'));
}
