// Where a request goes: to an engine mounted at a path prefix, or to one of the server's own routes. The caller's
// token is checked against the ACL through the engines' `authorize` callback, and a login grant becomes a token.
import type { Acl, AclRequest } from '../../acl/acl.js';
import { tokenPolicies } from '../../acl/builtin-policies.js';
import type { RequiredCapability } from '../../acl/capability.js';
import { InvalidRequest, NotFound, PermissionDenied, UnsupportedOperation } from '../../lib/errors.js';
import type { AuthGrant, BulkAuthorizer, CapabilityCheck } from '../../core/framework/request.js';
import type { Clock } from '../../ports/clock.js';
import type { AuditEvent } from '../audit/audit-format.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { PolicyStore } from '../policies/policy-store.js';
import type { ApiMethod, ApiRequest } from '../http/request.js';
import type { Route } from './route.js';
import { aclRequestOf } from './request-parameters.js';
import type { Mount, MountTable } from '../mounts/mount-table.js';
import { authView, type TokenRecord } from '../tokens/token-record.js';
import { checkAssignable } from '../tokens/token-policies.js';
import { tokenActor } from '../tokens/token-actor.js';
import type { TokenStore } from '../tokens/token-store.js';
import { wrapTtlOf } from '../wrapping/wrap-ttl.js';
import type { WrappedResponses } from '../wrapping/wrapped-responses.js';
import { engineResult, envelope, errorResult, type ApiResult } from '../http/wire.js';

export interface DispatchOutcome {
  result: ApiResult;
  caller?: TokenRecord | undefined;
  error?: unknown;
}

/** The capability an operation needs: POST and PUT need `create` when the object does not exist yet. */
function capabilityFor(method: ApiMethod, exists: boolean | undefined): RequiredCapability {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return 'read';
    case 'LIST':
      return 'list';
    case 'SCAN':
      return 'scan';
    case 'DELETE':
      return 'delete';
    case 'PATCH':
      return 'patch';
    default:
      return exists === false ? 'create' : 'update';
  }
}

const OPERATIONS: Record<ApiMethod, string> = {
  GET: 'read',
  HEAD: 'read',
  LIST: 'list',
  SCAN: 'scan',
  DELETE: 'delete',
  PATCH: 'patch',
  POST: 'update',
  PUT: 'update',
};

export interface DispatchServices {
  mounts: MountTable;
  routes: readonly Route[];
  tokens: TokenStore;
  policies: PolicyStore;
  audit: AuditLog;
  clock: Clock;
  wrapping: WrappedResponses;
}

export function createDispatcher(services: DispatchServices) {
  const { mounts, routes, tokens, policies, audit, clock, wrapping } = services;

  /**
   * The caller's token, looked up (and a use counted) at most once per request, only when a capability is asked.
   */
  function callerOf(request: ApiRequest) {
    let lookup: Promise<TokenRecord | undefined> | undefined;
    let acl: Promise<Acl | undefined> | undefined;
    const aclOf = () =>
      (acl ??= state.resolve().then((entry) => (entry ? policies.aclFor(entry.policies) : undefined)));
    const state = {
      entry: undefined as TokenRecord | undefined,
      resolve(): Promise<TokenRecord | undefined> {
        lookup ??= tokens.use(request.token, request.remoteAddress).then((entry) => (state.entry = entry));
        return lookup;
      },
      async allows(capability: RequiredCapability, path: string): Promise<boolean> {
        return (await aclOf())?.allows(capability, path) === true;
      },
      /** `allows`, and the request's parameters and wrapping kept to the constraints of the rule granting it. */
      async allowsRequest(check: AclRequest): Promise<boolean> {
        return (await aclOf())?.allowsRequest(check) === true;
      },
      /**
       * The `authorize` callback of an engine mounted at `mount`: the token's Acl's own `authorizer`, so engines' paths
       * take the mount's prefix there, a listing's checks keep their `listing` mark, a page is one `many` call, and the
       * request's own path is checked with its parameters.
       */
      authorizer(mount: string): BulkAuthorizer {
        let engine: Promise<BulkAuthorizer | undefined> | undefined;
        const engineOf = () => (engine ??= aclOf().then((found) => found?.authorizer(mount, aclRequestOf(request))));
        const authorize = (check: CapabilityCheck) => engineOf().then((found) => found?.(check) === true);
        authorize.many = async (checks: readonly CapabilityCheck[]) =>
          (await engineOf())?.many(checks) ?? checks.map(() => false);
        return authorize;
      },
    };
    return state;
  }
  type Caller = ReturnType<typeof callerOf>;

  async function mintFromGrant(grant: AuthGrant, mount: Mount, path: string) {
    const policies = tokenPolicies(grant);
    if (policies.includes('root')) throw new InvalidRequest('auth methods cannot create root tokens');
    checkAssignable(policies);
    const wanted = {
      ttl: grant.ttl,
      period: grant.period,
      maxTtl: grant.max_ttl,
      explicitMaxTtl: grant.explicit_max_ttl,
    };
    const { ttl, warnings } = tokens.ttlFor(wanted);
    const { token, record } = await tokens.mint(
      {
        policies,
        meta: grant.metadata,
        displayName: grant.display_name ? `${mount.tokenIssuer}-${grant.display_name}` : mount.tokenIssuer!,
        path,
        ttl: grant.ttl,
        explicitMaxTtl: grant.explicit_max_ttl,
        period: grant.period,
        numUses: grant.num_uses > 0 ? grant.num_uses : 0,
        renewable: grant.renewable && grant.token_type !== 'batch',
        boundCidrs: grant.bound_cidrs ?? [],
        grant,
      },
      ttl,
    );
    return { token, record, warnings };
  }

  async function toEngine(mount: Mount, request: ApiRequest, caller: Caller, requestId: string): Promise<ApiResult> {
    if (request.method === 'HEAD')
      throw new UnsupportedOperation(`HEAD is not supported on ${JSON.stringify(request.path)}`);
    const response = await mount.engine.handle({
      method: request.method,
      path: request.path.slice(mount.prefix.length),
      query: request.query,
      body: request.body,
      headers: request.headers,
      ...(request.remoteAddress !== undefined ? { remoteAddress: request.remoteAddress } : {}),
      // Engines ask with mount-relative paths; policies name full paths. `many` answers a whole listing page.
      authorize: caller.authorizer(mount.prefix),
      // The token looked up for `authorize`: asking again costs no lookup and counts no use.
      actor: async () => {
        const entry = await caller.resolve();
        return entry && tokenActor(entry);
      },
    });
    const body = response.body;
    const grant = mount.tokenIssuer && response.status === 200 && body && 'auth' in body ? body.auth : undefined;
    if (!grant || !body || 'errors' in body) return engineResult(requestId, response);
    const { token, record, warnings } = await mintFromGrant(grant, mount, request.path);
    return {
      status: 200,
      body: envelope(requestId, {
        data: body.data,
        warnings: [...(body.warnings ?? []), ...warnings],
        auth: authView(record, token, clock.now().getTime()),
      }),
    };
  }

  async function toRoute(request: ApiRequest, caller: Caller, requestId: string, wrapTtl: number): Promise<ApiResult> {
    const route = routes.find((candidate) => candidate.pattern.test(request.path));
    if (!route) throw new NotFound(`no handler for route ${JSON.stringify(request.path)}`);
    const handler = route.methods[request.method];
    if (!handler)
      throw new UnsupportedOperation(`${request.method} is not supported on ${JSON.stringify(request.path)}`);
    // Refused before anything is done: a wrapping token for anyone without a token would be storage for the asking.
    if (route.unauthenticated && wrapTtl > 0)
      throw new InvalidRequest(`response wrapping needs a token: ${JSON.stringify(request.path)} takes none`);
    const params: Record<string, string> = { ...route.pattern.exec(request.path)?.groups };
    if (!route.unauthenticated) {
      const aclPath = route.aclPath?.(params) ?? request.path;
      const exists = request.method === 'POST' || request.method === 'PUT' ? await route.exists?.(params) : undefined;
      const path = request.method === 'LIST' && !aclPath.endsWith('/') ? `${aclPath}/` : aclPath;
      const check = { ...aclRequestOf(request), capability: capabilityFor(request.method, exists), path };
      if (!(await caller.allowsRequest(check))) throw new PermissionDenied();
      if (route.sudo && !(await caller.allows('sudo', path))) throw new PermissionDenied();
    }
    return handler({ request, requestId, params, caller: caller.entry });
  }

  /**
   * The answer wrapped, for a request that asked for it (`ttl` above 0; the caller skips this for the others). Errors
   * are never wrapped; an answer that cannot be wrapped is not given unwrapped either; without a caller only a login's
   * answer is wrapped: it cost a valid login, and its token counts in the role's quota.
   */
  async function wrapped(result: ApiResult, request: ApiRequest, caller: Caller, requestId: string, ttl: number) {
    if (result.stream || result.text)
      throw new InvalidRequest(
        `the answer of ${JSON.stringify(request.path)} cannot be wrapped: leave out X-Vault-Wrap-TTL`,
      );
    const body = result.body as { errors?: unknown; auth?: unknown } | undefined;
    if (result.status !== 200 || !body || 'errors' in body) return result;
    if (!caller.entry && (body.auth ?? null) === null) throw new InvalidRequest('response wrapping needs a token');
    return wrapping.wrapAnswer(requestId, result, { ttl, path: request.path, creator: caller.entry });
  }

  /** Answers one request. Never throws: a failure comes back as its error answer, with the error for the log. */
  return async function dispatch(request: ApiRequest, requestId: string): Promise<DispatchOutcome> {
    const caller = callerOf(request);
    // The server's own paths are never a mount's (mount-paths.ts): they are answered without reading the table.
    const own = request.path.startsWith('sys/') || request.path.startsWith('auth/token/');
    let event: AuditEvent | undefined;
    try {
      const mount = own ? undefined : await mounts.find(request.path);
      if (audit.active()) {
        event = {
          time: clock.now(),
          requestId,
          operation: OPERATIONS[request.method],
          path: request.path,
          mountType: mount?.type ?? (request.path.startsWith('auth/token/') ? 'token' : 'system'),
          data: request.body,
          token: request.token,
          caller: await tokens.find(request.token),
          remoteAddress: request.remoteAddress,
          remotePort: request.remotePort,
        };
        await audit.logRequest(event);
      }
      const wrapTtl = wrapTtlOf(request);
      const answer = mount
        ? await toEngine(mount, request, caller, requestId)
        : await toRoute(request, caller, requestId, wrapTtl);
      // Most requests ask for no wrapping: they skip the function, and the turn an await of it costs.
      const result = wrapTtl === 0 ? answer : await wrapped(answer, request, caller, requestId, wrapTtl);
      if (event)
        await audit.logResponse(
          event,
          { status: result.status, body: result.body as Record<string, unknown> | undefined },
          clock.now(),
        );
      return { result, caller: caller.entry };
    } catch (error) {
      const result = errorResult(error);
      if (event) {
        try {
          await audit.logResponse(
            event,
            { status: result.status, body: result.body as Record<string, unknown> },
            clock.now(),
          );
        } catch (auditError) {
          return { result: errorResult(auditError), caller: caller.entry, error: auditError };
        }
      }
      return { result, caller: caller.entry, error };
    }
  };
}
