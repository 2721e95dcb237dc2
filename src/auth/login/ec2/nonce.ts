import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AuthenticationRefused, InternalError, InvalidRequest } from '../../../lib/errors.js';
import { formatTimestamp, parseTimestamp } from '../../../lib/time.js';
import type { AccessListEntry } from '../../lists/accesslist.js';

/**
 * Replay protection of ec2 logins (as in Vault): the identity access list remembers, per instance,
 * the nonce the instance was given and the pendingTime of its document. These rules are pure so that the access-list
 * update can re-run them against whatever another login committed meanwhile.
 */

/** What a client sends to say it never wants to log in again (an explicitly empty nonce). */
const REAUTHENTICATION_DISABLED = 'reauthentication-disabled-nonce';
export const MAX_NONCE_LENGTH = 128;

/** A fresh nonce: 128 random bits written like a UUID, as Vault does. */
export function generateNonce(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// Hashing first makes the comparison take the same time whatever the lengths.
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export interface LoginAttempt {
  /** The `nonce` field; undefined when the client did not send one. */
  suppliedNonce: string | undefined;
  /** Used when the client sent no nonce. */
  generatedNonce: string;
  /** The signed document's pendingTime. */
  pendingTime: Date;
  /** The login role name as supplied, recorded on a new entry. */
  roleName: string;
  /** The role's or the role tag's disallow_reauthentication. */
  disallowReauthentication: boolean;
  allowInstanceMigration: boolean;
  now: Date;
  /** The longest max TTL of the login (seconds): the entry must outlive every token. */
  lifetime: number;
}

export interface LoginOutcome {
  entry: AccessListEntry;
  /** The nonce to hand back in the grant's metadata, when the engine generated it and it stays usable. */
  returnedNonce?: string;
}

/**
 * Checks a login against the instance's entry (undefined on a first login) and answers the entry to store. Refusals
 * are AuthenticationRefused (403) with Vault's messages; a nonce over the limit is InvalidRequest (400).
 */
export function admitLogin(current: AccessListEntry | undefined, attempt: LoginAttempt): LoginOutcome {
  const optedOut = attempt.suppliedNonce === '';
  const disallow = attempt.disallowReauthentication || optedOut;
  const presented = optedOut ? REAUTHENTICATION_DISABLED : (attempt.suppliedNonce ?? '');
  if (current) checkRelogin(current, presented, attempt);

  const nonce = attempt.suppliedNonce ?? attempt.generatedNonce;
  if (!disallow && nonce.length > MAX_NONCE_LENGTH) {
    throw new InvalidRequest(`client nonce exceeding the limit of ${MAX_NONCE_LENGTH} characters`);
  }
  const now = attempt.now.getTime();
  // A re-login stores the nonce it presented, which differs from the stored one only after a migration.
  const entry: AccessListEntry = {
    role: current?.role ?? attempt.roleName,
    client_nonce: disallow ? '' : nonce,
    creation_time: current?.creation_time ?? formatTimestamp(now),
    disallow_reauthentication: disallow,
    pending_time: formatTimestamp(attempt.pendingTime),
    expiration_time: formatTimestamp(now + attempt.lifetime * 1000),
    last_updated_time: formatTimestamp(now),
  };
  const generated = attempt.suppliedNonce === undefined && !disallow;
  return generated ? { entry, returnedNonce: entry.client_nonce } : { entry };
}

function checkRelogin(current: AccessListEntry, presented: string, attempt: LoginAttempt): void {
  if (!current.disallow_reauthentication && current.client_nonce === '') {
    throw new AuthenticationRefused('client nonce missing in stored identity');
  }
  if (current.disallow_reauthentication || sameSecret(presented, REAUTHENTICATION_DISABLED)) {
    throw new AuthenticationRefused('reauthentication is disabled');
  }
  const stored = parseTimestamp(current.pending_time);
  if (!stored) throw new InternalError(`the access list entry has an invalid pending_time`);
  if (!sameSecret(presented, current.client_nonce)) {
    if (!attempt.allowInstanceMigration) throw new AuthenticationRefused('client nonce mismatch');
    if (attempt.pendingTime <= stored)
      throw new AuthenticationRefused('client nonce mismatch and instance meta-data incorrect');
  }
  if (attempt.pendingTime < stored) {
    throw new AuthenticationRefused('instance meta-data is older than the one used for previous login');
  }
}
