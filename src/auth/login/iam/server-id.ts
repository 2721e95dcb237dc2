import { createHash, timingSafeEqual } from 'node:crypto';
import { InvalidRequest } from '../../../lib/errors.js';
import { signedHeaderNames } from './authorization.js';
import type { RequestHeaders } from './headers.js';

/** The header that binds a signed request to this server, so that it cannot be replayed against another one. */
export const SERVER_ID_HEADER = 'X-Service-Cloud-IAM-Server-ID';
/** Vault's name for it, accepted as well so that existing clients work. */
export const VAULT_SERVER_ID_HEADER = 'X-Vault-AWS-IAM-Server-ID';

/**
 * Checks the server-ID header against the configured value (as in Vault): it must be present, equal the value
 * exactly, and be listed in the SignedHeaders of the Authorization header (STS then vouches for it). With
 * `acceptVaultName`, Vault's header name serves as well; every server-ID header present must pass.
 */
export function checkServerIdHeader(headers: RequestHeaders, expected: string, acceptVaultName: boolean): void {
  const fail = (detail: string): InvalidRequest =>
    new InvalidRequest(`error validating ${SERVER_ID_HEADER} header: ${detail}`);
  const names = acceptVaultName ? [SERVER_ID_HEADER, VAULT_SERVER_ID_HEADER] : [SERVER_ID_HEADER];
  const present = names.filter((name) => headers.get(name) !== undefined);
  if (present.length === 0) throw fail(`missing header "${SERVER_ID_HEADER}"`);

  for (const name of present) {
    const presented = (headers.get(name) ?? []).join(',');
    // The configured value is not shown: it would tell a caller what to sign for a replay against this server.
    if (!sameText(presented, expected)) throw fail(`the ${name} header "${presented}" does not carry this server's ID`);
  }
  const signed = signedHeaderNames(headers);
  if (signed === undefined) throw fail('missing Authorization header');
  for (const name of present) {
    if (!signed.includes(name.toLowerCase())) throw fail(`the ${name} header wasn't signed`);
  }
}

// Hashing first makes the comparison take the same time whatever the lengths.
function sameText(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
