// Where a request goes: to an engine mounted at a path prefix, or to one of the server's own routes. This is the part
// a user copies when wiring strongroom into another transport: strip the mount prefix, pass an `authorize` callback
// that checks the caller's token against the ACL, and turn a login grant into a client token.
import { NotFound, PermissionDenied, UnsupportedOperation } from 'strongroom';
import { engineResult, envelope, errorResult } from './http.mjs';

/**
 * @typedef {object} Mount
 * @property {string} prefix      e.g. `secret/`; requests under it go to the engine with the prefix removed
 * @property {string} type        what `sys/internal/ui/mounts` reports, e.g. `kv`
 * @property {Record<string, string>} [options]   likewise, e.g. `{ version: '2' }` for KV version 2
 * @property {{ handle(request: import('strongroom').EngineRequest): Promise<import('strongroom').EngineResponse> }} engine
 * @property {string} [tokenIssuer]  set on auth methods: a login grant becomes a token named after this mount
 */

/**
 * The capability an operation needs, as the engines decide it: POST and PUT need `create` when the object does not
 * exist yet and `update` when it does.
 * @param {string} method
 * @param {boolean | undefined} exists
 * @returns {import('strongroom').RequiredCapability}
 */
function capabilityFor(method, exists) {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return 'read';
    case 'LIST':
      return 'list';
    case 'DELETE':
      return 'delete';
    case 'PATCH':
      return 'patch';
    default:
      return exists === false ? 'create' : 'update';
  }
}

/**
 * @param {{
 *   mounts: Mount[],
 *   routes: import('./routes.mjs').SystemRoute[],
 *   tokens: import('./tokens.mjs').TokenStore,
 *   policies: import('./policies.mjs').PolicyStore,
 * }} services
 */
export function createDispatcher({ mounts, routes, tokens, policies }) {
  /**
   * The caller's token, looked up at most once per request and only when a capability is asked for, so that an
   * unauthenticated path (a login) neither needs a token nor uses one up.
   * @param {import('./http.mjs').ApiRequest} request
   */
  function callerOf(request) {
    let looked = false;
    /** @type {import('./tokens.mjs').TokenEntry | undefined} */
    let entry;
    return {
      get entry() {
        return entry;
      },
      resolve() {
        if (!looked) entry = tokens.use(request.token, request.remoteAddress);
        looked = true;
        return entry;
      },
    };
  }

  /** @param {ReturnType<typeof callerOf>} caller @param {import('strongroom').RequiredCapability} capability @param {string} path */
  function allowed(caller, capability, path) {
    const entry = caller.resolve();
    return entry !== undefined && policies.aclFor(entry.policies).allows(capability, path);
  }

  /** @param {Mount} mount @param {import('./http.mjs').ApiRequest} request @param {ReturnType<typeof callerOf>} caller @param {string} requestId */
  async function toEngine(mount, request, caller, requestId) {
    const response = await mount.engine.handle({
      method: /** @type {import('strongroom').HttpMethod} */ (request.method),
      path: request.path.slice(mount.prefix.length),
      query: request.query,
      body: request.body,
      headers: request.headers,
      remoteAddress: request.remoteAddress,
      // Engines ask with mount-relative paths; policies name full paths.
      authorize: ({ capability, path }) => allowed(caller, capability, mount.prefix + path),
    });
    const grant = mount.tokenIssuer && response.status === 200 && response.body && 'auth' in response.body ? response.body.auth : undefined;
    if (!grant) return engineResult(requestId, response);
    const { token, entry, warnings } = tokens.issue(grant, { path: request.path, mountName: mount.tokenIssuer });
    const body = /** @type {{ data?: unknown, warnings?: string[] }} */ (response.body);
    return {
      status: 200,
      body: envelope(requestId, { data: body.data, warnings: [...(body.warnings ?? []), ...warnings], auth: tokens.authView(entry, token) }),
    };
  }

  /** @param {import('./http.mjs').ApiRequest} request @param {ReturnType<typeof callerOf>} caller @param {string} requestId */
  async function toSystemRoute(request, caller, requestId) {
    const route = routes.find((candidate) => candidate.pattern.test(request.path));
    if (!route) throw new NotFound(`no handler for route ${JSON.stringify(request.path)}`);
    const handler = route.methods[request.method];
    if (!handler) throw new UnsupportedOperation(`${request.method} is not supported on ${JSON.stringify(request.path)}`);
    const params = { ...route.pattern.exec(request.path)?.groups };
    if (!route.unauthenticated) {
      const capability = capabilityFor(request.method, route.exists?.(params));
      const path = request.method === 'LIST' && !request.path.endsWith('/') ? `${request.path}/` : request.path;
      if (!allowed(caller, capability, path)) throw new PermissionDenied();
    }
    return handler({ request, requestId, params, entry: caller.entry });
  }

  /**
   * Answers one request. Never throws: a failure comes back as its error answer, with the error for the log.
   * @param {import('./http.mjs').ApiRequest} request
   * @param {string} requestId
   * @returns {Promise<{ result: import('./http.mjs').ApiResult, accessor?: string, error?: unknown }>}
   */
  return async function dispatch(request, requestId) {
    const caller = callerOf(request);
    try {
      const mount = mounts.find((candidate) => request.path.startsWith(candidate.prefix));
      const result = mount ? await toEngine(mount, request, caller, requestId) : await toSystemRoute(request, caller, requestId);
      return { result, accessor: caller.entry?.accessor };
    } catch (error) {
      return { result: errorResult(error), accessor: caller.entry?.accessor, error };
    }
  };
}
