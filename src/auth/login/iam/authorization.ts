import { InvalidRequest } from '../../../lib/errors.js';
import type { RequestHeaders } from './headers.js';

/**
 * What the server reads from the SigV4 `Authorization` header of a client's signed request. The signature itself is
 * never checked here: STS does that when the request is forwarded.
 */

/**
 * The lower-case names in the SignedHeaders list: the text after the `SignedHeaders=` of all Authorization values
 * joined with ',' (so a header split over several values still works), up to the next ','. Undefined when there is no
 * Authorization header; empty when it names no signed headers. A second SignedHeaders list, in any casing, is refused:
 * Vault reads the last one, and a decoy list that STS does not read could otherwise make an unsigned header
 * look signed.
 */
export function signedHeaderNames(headers: RequestHeaders): string[] | undefined {
  const values = headers.get('Authorization');
  if (!values || values.length === 0) return undefined;
  const joined = values.join(',');
  const marker = 'SignedHeaders=';
  if ((joined.match(/signedheaders=/gi) ?? []).length > 1) {
    throw new InvalidRequest('the Authorization header has more than one SignedHeaders list');
  }
  const at = joined.indexOf(marker);
  if (at < 0) return [];
  const list = joined.slice(at + marker.length).split(',', 1)[0] as string;
  return list.split(';').filter((name) => name !== '');
}

/**
 * The region of the credential scope (`Credential=<key>/<date>/<region>/sts/aws4_request`) in the first Authorization
 * value; undefined when there is none. The caller validates the region's shape.
 */
export function credentialScopeRegion(headers: RequestHeaders): string | undefined {
  const first = headers.get('Authorization')?.[0];
  if (first === undefined) return undefined;
  const token = first.split(' ').find((item) => item.startsWith('Credential='));
  if (token === undefined) return undefined;
  const scope = token.slice('Credential='.length).replace(/,$/, '').split('/');
  return scope.length === 5 && scope[2] !== '' ? scope[2] : undefined;
}
