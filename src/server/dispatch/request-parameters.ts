// What a policy's parameter constraints and wrapping bounds are weighed against: the request as Vault's ACL sees it.
import { isPlainObject } from '../../core/framework/fields.js';
import type { AclRequest } from '../../acl/acl.js';
import type { ApiRequest } from '../http/request.js';
import { wrapTtlOf } from '../wrapping/wrap-ttl.js';

/**
 * The request's own path with the parameters it sends (its query's values, then its JSON body's members over them;
 * Vault's reserved `help` aside) and the TTL its response is to be wrapped for (`X-Vault-Wrap-TTL`), for the ACL.
 */
export function aclRequestOf(request: ApiRequest): Omit<AclRequest, 'capability'> {
  const query = Object.entries(request.query).filter(([name]) => name !== 'help');
  const body = isPlainObject(request.body) ? Object.entries(request.body) : [];
  const wrapTtl = wrapTtlOf(request);
  return {
    path: request.path,
    // fromEntries defines own properties, so a member named "__proto__" stays a parameter.
    parameters: Object.fromEntries([...query, ...body]),
    // 0 asks for no wrapping, as no header does.
    ...(wrapTtl > 0 ? { wrapTtl } : {}),
  };
}
