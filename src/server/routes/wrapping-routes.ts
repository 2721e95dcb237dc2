// sys/wrapping/...: wrap given data, unwrap a wrapped answer once, look up a wrapping token, rewrap. A wrapping token is
// presented either as the request's own token or, by another token the ACL allows on the path, as `token` in the body;
// the routes check that themselves, since the dispatcher would otherwise spend the wrapping token's one use on the
// ACL check. As in Vault, the lookup needs no token of its own and shows nothing of the wrapped answer.
import { z } from 'zod';
import { InvalidRequest, PermissionDenied } from '../../lib/errors.js';
import { isPlainObject, str } from '../../core/framework/fields.js';
import { fields, withPutAsPost, type Route, type RouteContext } from '../dispatch/route.js';
import { envelope, ok, type ApiResult } from '../http/wire.js';
import type { PolicyStore } from '../policies/policy-store.js';
import type { TokenRecord } from '../tokens/token-record.js';
import type { TokenStore } from '../tokens/token-store.js';
import { wrapTtlOf } from '../wrapping/wrap-ttl.js';
import { InvalidWrappingToken, type WrappedResponses } from '../wrapping/wrapped-responses.js';

export interface WrappingServices {
  wrapping: WrappedResponses;
  tokens: TokenStore;
  policies: PolicyStore;
}

const tokenSchema = z.object({ token: str().optional() });

export function wrappingRoutes({ wrapping, tokens, policies }: WrappingServices): Route[] {
  /**
   * The wrapping token a request names, and who names it: the body's `token` is a third party's, who must be allowed
   * the path (its own token's use is counted); else the request's token is the wrapping token itself.
   */
  const named = async ({ request }: RouteContext): Promise<{ token: string; caller?: TokenRecord }> => {
    const given = fields(tokenSchema, request.body).token;
    if (given === undefined || given === '') {
      if (!request.token) throw new InvalidWrappingToken();
      return { token: request.token };
    }
    const caller = await tokens.use(request.token, request.remoteAddress);
    if (!caller || !(await policies.aclFor(caller.policies)).allows('update', request.path))
      throw new PermissionDenied();
    return { token: given, caller };
  };

  const unwrap = async (context: RouteContext): Promise<ApiResult> => {
    const { token } = await named(context);
    const stored = await wrapping.unwrap(token, context.request.remoteAddress);
    // The answer as the wrapping request would have had it, its own request id included.
    return { status: 200, body: stored.response as object };
  };

  const rewrap = async (context: RouteContext): Promise<ApiResult> => {
    const { token, caller } = await named(context);
    const wrapInfo = await wrapping.rewrap(token, context.request.remoteAddress, caller);
    return { status: 200, body: { ...envelope(context.requestId, {}), wrap_info: wrapInfo } };
  };

  const lookup = async ({ request, requestId }: RouteContext): Promise<ApiResult> => {
    const token = fields(tokenSchema, request.method === 'GET' ? request.query : request.body).token || request.token;
    if (!token) throw new InvalidRequest('missing "token" value in input');
    return ok(requestId, await wrapping.lookup(token));
  };

  const routes: Route[] = [
    {
      pattern: /^sys\/wrapping\/wrap$/,
      methods: {
        POST: async ({ request, requestId }) => {
          if (wrapTtlOf(request) === 0) throw new InvalidRequest('endpoint requires response wrapping to be used');
          const data = request.body ?? {};
          if (!isPlainObject(data)) throw new InvalidRequest('the request body must be a JSON object');
          return ok(requestId, data);
        },
      },
    },
    { pattern: /^sys\/wrapping\/unwrap$/, unauthenticated: true, methods: { POST: unwrap } },
    { pattern: /^sys\/wrapping\/rewrap$/, unauthenticated: true, methods: { POST: rewrap } },
    { pattern: /^sys\/wrapping\/lookup$/, unauthenticated: true, methods: { GET: lookup, POST: lookup } },
  ];
  return routes.map(withPutAsPost);
}
