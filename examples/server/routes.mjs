// The server's own endpoints, as data: health, ACL policies, and the token endpoints every Vault client expects.
// Each route names its methods; dispatch.mjs checks the token and the capability before a handler runs.
import { createRequire } from 'node:module';
import { InvalidRequest, parseDuration } from 'strongroom';
import { envelope, engineResult } from './http.mjs';

const { version } = createRequire(import.meta.url)('strongroom/package.json');

/**
 * @typedef {object} RouteContext
 * @property {import('./http.mjs').ApiRequest} request
 * @property {string} requestId
 * @property {Record<string, string>} params
 * @property {import('./tokens.mjs').TokenEntry | undefined} entry   the caller's token (absent on open routes)
 */

/**
 * @typedef {object} SystemRoute
 * @property {RegExp} pattern
 * @property {Partial<Record<string, (context: RouteContext) => Promise<import('./http.mjs').ApiResult>>>} methods
 * @property {boolean} [unauthenticated]
 * @property {(params: Record<string, string>) => boolean} [exists]   tells create from update, as engines do
 */

/** @param {unknown} body */
function fieldsOf(body) {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidRequest('the request body must be a JSON object');
  return /** @type {Record<string, unknown>} */ (body);
}

/** Vault's `paths` field: a list, or a comma-separated string. @param {unknown} value */
function pathList(value) {
  const list = typeof value === 'string' ? value.split(',').map((path) => path.trim()) : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((path) => typeof path === 'string' && path !== '')) {
    throw new InvalidRequest('"paths" must be a non-empty list of paths');
  }
  return /** @type {string[]} */ (list);
}

/** renew-self's `increment`: seconds or a duration string; absent means the grant's TTL. @param {unknown} value */
function incrementOf(value) {
  if (value === undefined) return 0;
  const seconds = typeof value === 'string' || typeof value === 'number' ? parseDuration(value, 'increment') : -1;
  if (seconds < 0) throw new InvalidRequest('increment must be a non-negative number of seconds or a duration such as "1h"');
  return seconds;
}

/**
 * @param {{
 *   mounts: import('./dispatch.mjs').Mount[],
 *   tokens: import('./tokens.mjs').TokenStore,
 *   policies: import('./policies.mjs').PolicyStore,
 *   auth: import('strongroom').AuthMethod,
 *   clock: import('strongroom').Clock,
 * }} services
 * @returns {SystemRoute[]}
 */
export function systemRoutes({ mounts, tokens, policies, auth, clock }) {
  const ok = (requestId, data, warnings) => ({ status: 200, body: envelope(requestId, { data, warnings }) });
  // The legacy sys/policy endpoints answer with their data at the top level as well, as Vault does.
  const legacy = (requestId, data) => ({ status: 200, body: { ...data, ...envelope(requestId, { data }) } });

  const health = async () => ({
    status: 200,
    body: {
      initialized: true,
      sealed: false,
      standby: false,
      performance_standby: false,
      replication_performance_mode: 'disabled',
      replication_dr_mode: 'disabled',
      server_time_utc: Math.floor(clock.now().getTime() / 1000),
      version: `strongroom ${version}`,
    },
  });

  /**
   * @param {'policy' | 'rules'} field  where the policy text goes: `rules` on the legacy endpoints
   * @param {typeof ok} answer
   */
  const readPolicy = (field, answer) => async ({ params, requestId }) => {
    const policy = policies.get(params.name);
    if (!policy) return { status: 404, body: { errors: [] } };
    return answer(requestId, { name: policy.name, [field]: policy.text });
  };
  /** @param {string[]} fields  the body fields that may carry the policy text, in order of preference */
  const writePolicy = (fields) => async ({ params, request }) => {
    const body = fieldsOf(request.body);
    policies.put(params.name, fields.map((field) => body[field]).find((value) => value !== undefined));
    return { status: 204 };
  };
  const deletePolicy = async ({ params }) => {
    policies.delete(params.name);
    return { status: 204 };
  };
  const policyExists = (params) => policies.has(params.name);

  // The Vault CLI asks this before every `vault kv` command, to learn the mount and its KV version.
  const mountOf = async ({ params, requestId }) => {
    const mount = mounts.find(({ prefix }) => `${params.path}/`.startsWith(prefix));
    if (!mount) return { status: 404, body: { errors: [] } };
    return ok(requestId, { path: mount.prefix, type: mount.type, options: mount.options ?? null, description: '' });
  };

  return [
    { pattern: /^sys\/health$/, unauthenticated: true, methods: { GET: health, HEAD: health } },
    { pattern: /^sys\/internal\/ui\/mounts\/(?<path>.+)$/, unauthenticated: true, methods: { GET: mountOf } },
    {
      pattern: /^sys\/policies\/acl\/?$/,
      methods: { LIST: async ({ requestId }) => ok(requestId, { keys: policies.names() }) },
    },
    {
      pattern: /^sys\/policies\/acl\/(?<name>[^/]+)$/,
      exists: policyExists,
      methods: {
        GET: readPolicy('policy', ok),
        POST: writePolicy(['policy']),
        DELETE: deletePolicy,
      },
    },
    {
      pattern: /^sys\/policy\/?$/,
      methods: {
        GET: async ({ requestId }) => legacy(requestId, { keys: policies.names(), policies: policies.names() }),
      },
    },
    {
      pattern: /^sys\/policy\/(?<name>[^/]+)$/,
      exists: policyExists,
      methods: {
        GET: readPolicy('rules', legacy),
        POST: writePolicy(['policy', 'rules']),
        DELETE: deletePolicy,
      },
    },
    {
      pattern: /^sys\/capabilities-self$/,
      methods: {
        POST: async ({ request, entry, requestId }) => {
          const body = fieldsOf(request.body);
          const paths = pathList(body.paths ?? body.path);
          const acl = policies.aclFor(entry.policies);
          const byPath = paths.map((path) => [path, acl.capabilities(path)]);
          // Vault also answers the first path's capabilities as `capabilities`, for older clients.
          return ok(requestId, Object.fromEntries([...byPath, ['capabilities', byPath[0][1]]]));
        },
      },
    },
    {
      pattern: /^auth\/token\/lookup-self$/,
      methods: { GET: async ({ request, entry, requestId }) => ok(requestId, tokens.lookupView(entry, request.token)) },
    },
    {
      pattern: /^auth\/token\/renew-self$/,
      methods: {
        POST: async ({ request, entry, requestId }) => {
          const seconds = incrementOf(fieldsOf(request.body).increment);
          if (!entry.renewable || !entry.grant) throw new InvalidRequest('lease is not renewable');
          const response = await auth.renew(entry.grant);
          if (response.status !== 200) return engineResult(requestId, response);
          // The renewed grant carries the role's current TTLs; without one the issued grant's apply.
          const renewed = response.body && 'auth' in response.body && response.body.auth ? response.body.auth : entry.grant;
          const warnings = tokens.extend(entry, renewed, seconds);
          return { status: 200, body: envelope(requestId, { warnings, auth: tokens.authView(entry, request.token) }) };
        },
      },
    },
    {
      pattern: /^auth\/token\/revoke-self$/,
      methods: {
        POST: async ({ entry }) => {
          tokens.revoke(entry);
          return { status: 204 };
        },
      },
    },
  ].map(withPutAsPost);
}

/** POST and PUT are the same operation everywhere in Vault's API. @param {SystemRoute} route */
function withPutAsPost(route) {
  const { POST, PUT } = route.methods;
  return POST && !PUT ? { ...route, methods: { ...route.methods, PUT: POST } } : route;
}
