// sys/mounts, sys/auth, sys/remount and sys/internal/ui/mounts: the mount table over Vault's API. Writes under
// sys/auth/ and sys/remount also need `sudo`, as Vault's root-protected paths; sys/mounts/auth/<path>/tune tunes an
// auth method without it, as in Vault.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { InvalidRequest, PermissionDenied } from '../../lib/errors.js';
import { str } from '../../core/framework/fields.js';
import { fields, withPutAsPost, type Route, type RouteContext } from '../dispatch/route.js';
import { envelope, noContent, ok, type ApiResult } from '../http/wire.js';
import {
  isAuthMount,
  mountView,
  tuneView,
  TOKEN_AUTH_VIEW,
  type MountDefinition,
  type SystemTtls,
} from '../mounts/mount-definition.js';
import { normalisedPath } from '../mounts/mount-paths.js';
import type { MountTable } from '../mounts/mount-table.js';
import { hasMountAccess } from '../policies/mount-access.js';
import type { PolicyStore } from '../policies/policy-store.js';
import type { TokenStore } from '../tokens/token-store.js';
import { mountTuning, newMount } from './mount-bodies.js';

export interface MountServices {
  table: MountTable;
  system: SystemTtls;
  policies: PolicyStore;
  tokens: TokenStore;
}

const remountSchema = z.object({ from: str({ maxLength: 1024 }), to: str({ maxLength: 1024 }) });
/** Finished moves this process remembers for sys/remount/status (Vault keeps them in memory as well). */
const MAX_MIGRATIONS = 100;

/** Vault answers these listings with the table at the top level as well as under `data`, for older clients. */
const table = (requestId: string, data: Record<string, unknown>): ApiResult => ({
  status: 200,
  body: { ...data, ...envelope(requestId, { data }) },
});

/** The token method is the server's own: sys/auth shows it, and no mount may take its path. */
const isTokenPath = (path: string) => path.startsWith('auth/token/');

export function mountRoutes({ table: mounts, system, policies, tokens }: MountServices): Route[] {
  const tokenTtls = () => ({ default_lease_ttl: system.defaultLeaseTtl, max_lease_ttl: system.maxLeaseTtl });
  const migrations = new Map<string, Record<string, string>>();
  const definitions = async () => (await mounts.current()).map((mount) => mount.definition);
  const inTable = (auth: boolean) => async () =>
    (await definitions()).filter((definition) => isAuthMount(definition) === auth);
  /** The mount `path` (a full path) lies in, or the 400 Vault answers. */
  const lyingIn = async (path: string, missing: string): Promise<MountDefinition> => {
    const found = await mounts.definitionAt(normalisedPath(path));
    if (!found) throw new InvalidRequest(`${missing} ${normalisedPath(path)}`);
    return found;
  };

  // `auth` routes name paths below auth/; their table's keys are the paths below auth/ too.
  const routesOf = (base: 'sys/mounts' | 'sys/auth', auth: boolean): Route[] => {
    const full = (path: string) => normalisedPath(auth ? `auth/${path.replace(/^\/+/, '')}` : path);
    const missing = auth ? 'No auth engine at' : 'No secret engine mount at';
    // Auth methods are enabled and disabled under sys/auth only, as in Vault.
    const outOfAuth = (path: string, verb: string) => {
      if (!auth && isAuthMount({ path })) throw new PermissionDenied(`cannot ${verb} ${JSON.stringify(path)}`);
      return path;
    };
    const tune = {
      GET: async ({ params, requestId }: RouteContext) =>
        ok(
          requestId,
          isTokenPath(full(params.path!))
            ? { description: TOKEN_AUTH_VIEW.description, ...tokenTtls(), force_no_cache: false }
            : tuneView(await lyingIn(full(params.path!), missing), system),
        ),
      POST: async ({ params, request }: RouteContext) => {
        await mounts.tune(full(params.path!), mountTuning(request.body));
        return noContent;
      },
    };
    return [
      {
        pattern: new RegExp(`^${base}$`),
        methods: {
          GET: async ({ requestId }) => {
            const listed = await inTable(auth)();
            const views = listed.map((d) => [auth ? d.path.slice('auth/'.length) : d.path, mountView(d)] as const);
            return table(requestId, Object.fromEntries(auth ? [...views, ['token/', TOKEN_AUTH_VIEW]] : views));
          },
        },
      },
      { pattern: new RegExp(`^${base}/(?<path>.+?)/tune$`), sudo: auth, methods: tune },
      {
        pattern: new RegExp(`^${base}/(?<path>.+)$`),
        sudo: auth,
        methods: {
          GET: async ({ params, requestId }) => {
            if (isTokenPath(full(params.path!))) return ok(requestId, TOKEN_AUTH_VIEW);
            return ok(requestId, mountView(await lyingIn(full(params.path!), missing)));
          },
          POST: async ({ params, request }) => {
            await mounts.enable(newMount(outOfAuth(full(params.path!), 'mount'), request.body, auth));
            return noContent;
          },
          DELETE: async ({ params }) => {
            const path = outOfAuth(full(params.path!), 'unmount');
            await mounts.disable(path);
            // As in Vault, the tokens an auth mount issued end with it (and so do their children): a login's token
            // must not outlive the method that vouched for it.
            if (auth) await tokens.revokeWhere((record) => record.path.startsWith(path));
            return noContent;
          },
        },
      },
    ];
  };

  // The move is done when this answers: the data lives by the mount's uuid, so one table write moves it. Vault answers
  // a migration id to poll (the Vault CLI's `secrets move` does); its status here is `success` at once.
  const remount = async ({ request, requestId }: RouteContext): Promise<ApiResult> => {
    const { from, to } = fields(remountSchema, request.body);
    if (from.trim() === '' || to.trim() === '')
      throw new InvalidRequest("both 'from' and 'to' path must be specified as a string");
    if (from !== from.trim()) throw new InvalidRequest("'from' path cannot contain trailing whitespace");
    if (to !== to.trim()) throw new InvalidRequest("'to' path cannot contain trailing whitespace");
    const [source, target] = [normalisedPath(from), normalisedPath(to)];
    await mounts.remount(source, target);
    const id = randomUUID();
    migrations.set(id, { source_mount: source, target_mount: target, status: 'success' });
    if (migrations.size > MAX_MIGRATIONS) migrations.delete(migrations.keys().next().value!);
    return ok(requestId, { migration_id: id });
  };

  // Vault's preflight answer: the caller's own token decides, without counting a use, and a mount it may not see is
  // refused exactly like a path where nothing is mounted, so that the answers do not map the mounts.
  const mountForCaller = async ({ params, request, requestId }: RouteContext): Promise<ApiResult> => {
    const caller = await tokens.find(request.token);
    if (!caller) throw new PermissionDenied();
    const asked = normalisedPath(params.path!);
    const found = await mounts.definitionAt(asked);
    if (!found || !hasMountAccess(await policies.policiesFor(caller.policies), found.path)) {
      throw new PermissionDenied(
        `preflight capability check returned 403, please ensure client's policies grant access to path ${JSON.stringify(asked)}`,
      );
    }
    return ok(requestId, { path: found.path, ...mountView(found) });
  };

  const routes: Route[] = [
    // The Vault CLI asks this before every `vault kv` command, to learn the mount and its KV version. Vault lets it
    // through without a token check of its own path, and checks the caller's access to the mount instead.
    { pattern: /^sys\/internal\/ui\/mounts\/(?<path>.+)$/, unauthenticated: true, methods: { GET: mountForCaller } },
    ...routesOf('sys/mounts', false),
    ...routesOf('sys/auth', true),
    { pattern: /^sys\/remount$/, sudo: true, methods: { POST: remount } },
    {
      pattern: /^sys\/remount\/status\/(?<id>[^/]+)$/,
      methods: {
        GET: async ({ params, requestId }) => {
          const info = migrations.get(params.id!);
          return info
            ? ok(requestId, { migration_id: params.id, migration_info: info })
            : { status: 404, body: { errors: [] } };
        },
      },
    },
  ];
  return routes.map(withPutAsPost);
}
