// The wrap TTL a request asks for (the ACL weighs it against a policy's bounds: src/acl/parameter-check.ts).
import { InvalidRequest } from '../../lib/errors.js';
import { parseDuration } from '../../lib/duration.js';
import type { ApiRequest } from '../http/request.js';

/**
 * The seconds `X-Vault-Wrap-TTL` asks for (a duration such as "15m", or seconds); 0 when the header is absent, empty
 * or zero, which asks for no wrapping, as in Vault. A value that is not a duration, or is negative, is a 400.
 */
export function wrapTtlOf(request: Pick<ApiRequest, 'headers'>): number {
  const header = request.headers['x-vault-wrap-ttl'];
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value === undefined || value.trim() === '') return 0;
  const seconds = parseDuration(value, 'X-Vault-Wrap-TTL');
  if (seconds < 0) throw new InvalidRequest('requested wrap ttl cannot be negative');
  return seconds;
}
