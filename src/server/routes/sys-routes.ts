// sys/: health, ACL policies (and the legacy sys/policy endpoints), capabilities, mounts (read-only).
import { z } from 'zod';
import { InvalidRequest, NotFound, PermissionDenied, UnsupportedOperation } from '../../lib/errors.js';
import { stringList } from '../../core/framework/fields.js';
import type { Clock } from '../../ports/clock.js';
import type { Mount } from '../dispatch/dispatch.js';
import { fields, withPutAsPost, type Route, type RouteContext } from '../dispatch/route.js';
import { envelope, noContent, ok, type ApiResult } from '../http/wire.js';
import { hasMountAccess } from '../policies/mount-access.js';
import { canonicalPolicyName, type PolicyStore } from '../policies/policy-store.js';
import type { TokenStore } from '../tokens/token-store.js';
import { SERVER_VERSION } from './version.js';

export interface SysServices {
  mounts: readonly Mount[];
  policies: PolicyStore;
  clock: Clock;
  tokens: TokenStore;
  /** Whether the storage answers a read now: the readiness probe's question. */
  storageReadable: () => Promise<boolean>;
}

const notFound: ApiResult = { status: 404, body: { errors: [] } };
/** Paths one capabilities-self request may ask about: each is an ACL check, and a body holds many short paths. */
export const MAX_CAPABILITY_PATHS = 1000;
const capabilitiesSchema = z.object({ paths: stringList().optional(), path: stringList().optional() });
const healthSchema = z.object({ ready: z.enum(['true', 'false', '']).optional() });

function mountView(mount: Mount): Record<string, unknown> {
  return {
    type: mount.type,
    description: mount.description,
    options: mount.options ?? null,
    local: false,
    seal_wrap: false,
    config: {},
  };
}

export function sysRoutes({ mounts, policies, clock, tokens, storageReadable }: SysServices): Route[] {
  // The legacy sys/policy endpoints answer with their data at the top level as well, as Vault does.
  const legacy = (requestId: string, data: Record<string, unknown>): ApiResult => ({
    status: 200,
    body: { ...data, ...envelope(requestId, { data }) },
  });

  // `?ready=true` makes it a readiness probe for load balancers: 503 while the storage cannot be read.
  const health: Route['methods']['GET'] = async ({ request }) => {
    const { ready = 'false' } = fields(healthSchema, request.query);
    const readable = ready === 'false' || (await storageReadable());
    return {
      status: readable ? 200 : 503,
      body: {
        initialized: true,
        sealed: false,
        standby: false,
        performance_standby: false,
        replication_performance_mode: 'disabled',
        replication_dr_mode: 'disabled',
        server_time_utc: Math.floor(clock.now().getTime() / 1000),
        version: SERVER_VERSION,
        ...(ready === 'false' ? {} : { ready: readable }),
      },
    };
  };

  // Vault clients ask these before anything else (hvac's is_sealed, node-vault's status). This server has no seal and no
  // init step: its state is ready when it answers, so it is always initialised and unsealed, with no key shares.
  const sealStatus: Route['methods']['GET'] = async () => ({
    status: 200,
    body: {
      type: 'shamir',
      initialized: true,
      sealed: false,
      t: 0,
      n: 0,
      progress: 0,
      nonce: '',
      version: SERVER_VERSION,
      // Vault's value when its build recorded no date, as this package's does not.
      build_date: '1970-01-01T00:00:00Z',
      migration: false,
      recovery_seal: false,
      storage_type: 'strongroom',
    },
  });

  // Every process over one storage serves alike, with no leader and no standby: Vault without HA storage says so.
  const leader: Route['methods']['GET'] = async () => ({
    status: 200,
    body: {
      ha_enabled: false,
      is_self: false,
      active_time: '0001-01-01T00:00:00Z',
      leader_address: '',
      leader_cluster_address: '',
      performance_standby: false,
      performance_standby_last_remote_wal: 0,
    },
  });

  // What `vault auth enable` sends: refused with the reason, where a 404 said nothing.
  const fixed = (reason: string): Route['methods'] => {
    const refuse = async (): Promise<ApiResult> => {
      throw new UnsupportedOperation(reason);
    };
    return { POST: refuse, DELETE: refuse };
  };

  const readPolicy =
    (field: 'policy' | 'rules', answer: (requestId: string, data: Record<string, unknown>) => ApiResult) =>
    async ({ params, requestId }: RouteContext) => {
      const policy = await policies.get(params.name!);
      return policy ? answer(requestId, { name: policy.name, [field]: policy.policy }) : notFound;
    };
  // The policy text is `policy`, or `rules` on the legacy endpoints.
  const writePolicy = async ({ params, request }: RouteContext) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body))
      throw new InvalidRequest('the request body must be a JSON object');
    await policies.put(params.name!, body.policy ?? body.rules);
    return noContent;
  };
  const deletePolicy = async ({ params }: RouteContext) => {
    await policies.delete(params.name!);
    return noContent;
  };
  // GET and LIST sys/policy both list, as in Vault.
  const listLegacy = async ({ requestId }: RouteContext) => {
    const names = await policies.names();
    return legacy(requestId, { keys: names, policies: names });
  };

  // No existence check, as in Vault: every policy write is an update. With one, `create` alone would write any policy
  // not written yet, such as a name a role or a token already carries, with whatever rules its writer likes.
  const policyRoute = (base: string, field: 'policy' | 'rules', answer: typeof legacy): Route => ({
    pattern: new RegExp(`^${base}/(?<name>[^/]+)$`),
    aclPath: (params) => `${base}/${canonicalPolicyName(params.name!)}`,
    methods: { GET: readPolicy(field, answer), POST: writePolicy, DELETE: deletePolicy },
  });

  /** The mount a path lies in; `path` may end in '/' or not. */
  const mountOf = (path: string) => mounts.find(({ prefix }) => `${path.replace(/\/$/, '')}/`.startsWith(prefix));
  // What sys/auth lists, by the path below auth/: the cloud auth method, and tokens (which are not an engine here).
  const authMethods = new Map<string, Record<string, unknown>>([
    ...mounts
      .filter((mount) => mount.prefix.startsWith('auth/'))
      .map((mount) => [mount.prefix.slice('auth/'.length), mountView(mount)] as const),
    [
      'token/',
      {
        type: 'token',
        description: 'token based credentials',
        options: null,
        local: false,
        seal_wrap: false,
        config: {},
      },
    ],
  ]);

  // Vault's preflight answer: the caller's own token decides, without counting a use, and a mount it may not see is
  // refused exactly like a path where nothing is mounted, so that the answers do not map the mounts.
  const mountForCaller: Route['methods']['GET'] = async ({ params, request, requestId }) => {
    const caller = await tokens.find(request.token);
    if (!caller) throw new PermissionDenied();
    const asked = params.path!.endsWith('/') ? params.path! : `${params.path}/`;
    const mount = mountOf(asked);
    if (!mount || !hasMountAccess(await policies.policiesFor(caller.policies), mount.prefix)) {
      throw new PermissionDenied(
        `preflight capability check returned 403, please ensure client's policies grant access to path ${JSON.stringify(asked)}`,
      );
    }
    return ok(requestId, { path: mount.prefix, ...mountView(mount) });
  };

  const routes: Route[] = [
    { pattern: /^sys\/health$/, unauthenticated: true, methods: { GET: health, HEAD: health } },
    { pattern: /^sys\/seal-status$/, unauthenticated: true, methods: { GET: sealStatus } },
    { pattern: /^sys\/leader$/, unauthenticated: true, methods: { GET: leader } },
    {
      pattern: /^sys\/init$/,
      unauthenticated: true,
      methods: {
        GET: async () => ({ status: 200, body: { initialized: true } }),
        PUT: async () => {
          throw new InvalidRequest('the server is already initialized: it has no init or unseal step');
        },
      },
    },
    // The Vault CLI asks this before every `vault kv` command, to learn the mount and its KV version. Vault lets it
    // through without a token check of its own path, and checks the caller's access to the mount instead.
    { pattern: /^sys\/internal\/ui\/mounts\/(?<path>.+)$/, unauthenticated: true, methods: { GET: mountForCaller } },
    {
      pattern: /^sys\/mounts$/,
      methods: {
        GET: async ({ requestId }) =>
          ok(
            requestId,
            Object.fromEntries(
              mounts
                .filter((mount) => !mount.prefix.startsWith('auth/'))
                .map((mount) => [mount.prefix, mountView(mount)]),
            ),
          ),
      },
    },
    // Writes are declared (and refused) so that the ACL is asked first, as in Vault: a caller without `update` learns
    // nothing but 403.
    {
      pattern: /^sys\/mounts\/(?<path>.+)$/,
      methods: {
        ...fixed('secrets engines are fixed: the KV engine at secret/'),
        GET: async ({ params, requestId }) => {
          const mount = mountOf(params.path!);
          if (!mount || mount.prefix.startsWith('auth/')) throw new NotFound('no mount at this path');
          return ok(requestId, mountView(mount));
        },
      },
    },
    {
      pattern: /^sys\/auth$/,
      methods: { GET: async ({ requestId }) => ok(requestId, Object.fromEntries(authMethods)) },
    },
    // Vault's root-protected paths (sys/auth/*) need sudo as well, whatever the operation.
    {
      pattern: /^sys\/auth\/(?<path>.+)$/,
      sudo: true,
      methods: {
        ...fixed('auth methods are fixed: the cloud auth method at auth/cloud/ and tokens at auth/token/'),
        GET: async ({ params, requestId }) => {
          const method = authMethods.get(`${params.path!.replace(/\/$/, '')}/`);
          if (!method) throw new NotFound('no auth method at this path');
          return ok(requestId, method);
        },
      },
    },
    {
      pattern: /^sys\/policies\/acl\/?$/,
      methods: { LIST: async ({ requestId }) => ok(requestId, { keys: await policies.names() }) },
    },
    policyRoute('sys/policies/acl', 'policy', (requestId, data) => ok(requestId, data)),
    {
      pattern: /^sys\/policy\/?$/,
      methods: { GET: listLegacy, LIST: listLegacy },
    },
    policyRoute('sys/policy', 'rules', legacy),
    {
      pattern: /^sys\/capabilities-self$/,
      methods: {
        POST: async ({ request, caller, requestId }) => {
          const body = fields(capabilitiesSchema, request.body);
          const paths = body.paths ?? body.path ?? [];
          if (paths.length === 0) throw new InvalidRequest('"paths" must be a non-empty list of paths');
          if (paths.length > MAX_CAPABILITY_PATHS)
            throw new InvalidRequest(`"paths" may name at most ${MAX_CAPABILITY_PATHS} paths`);
          // An authenticated route: the dispatcher has found the caller's token, or refused the request.
          const acl = await policies.aclFor(caller!.policies);
          const byPath = paths.map((path) => [path, acl.capabilities(path)] as const);
          // Vault also answers the first path's capabilities as `capabilities`, for older clients.
          return ok(requestId, Object.fromEntries([...byPath, ['capabilities', byPath[0]![1]]]));
        },
      },
    },
  ];
  return routes.map(withPutAsPost);
}
