// createServer: both engines, client tokens, ACL policies and the audit log behind a node:http listener that speaks
// Vault's HTTP API. Storage is the caller's; the `strongroom server` command picks a durable, encrypted one.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../lib/clocks.js';
import { StorageUnavailable } from '../lib/errors.js';
import { acceptListMethod } from '../adapters/http/list-method.js';
import { MemoryStorage } from '../adapters/storage/memory/memory-storage.js';
import { JsonStore } from '../core/store/stored-json.js';
import { AuditLog } from './audit/audit-log.js';
import { createDispatcher } from './dispatch/dispatch.js';
import { BodyBudget } from './http/body-budget.js';
import { createListener, trackConnections } from './http/listener.js';
import { ClientGone, API_PREFIX, readRequest, type ApiRequest } from './http/request.js';
import { transportLimits } from './http/transport-limits.js';
import { errorResult, sendResult, type ApiResult } from './http/wire.js';
import { bothWatchers, observedStorage, timedCalls } from './metrics/metered-storage.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { PolicyStore } from './policies/policy-store.js';
import { eventRoutes } from './routes/event-routes.js';
import { subscriptionLimits } from './routes/event-subscriptions.js';
import { metricsRoute } from './routes/metrics-route.js';
import { sysRoutes } from './routes/sys-routes.js';
import { auditRoutes } from './routes/audit-routes.js';
import { mountRoutes } from './routes/mount-routes.js';
import { EngineFactory } from './mounts/engine-factory.js';
import { MountTable } from './mounts/mount-table.js';
import { runMountPeriodic } from './mounts/mount-periodic.js';
import { logToStandardOutput } from './log/log-lines.js';
import { MountTableStore } from './mounts/mount-table-store.js';
import { keyRoutes } from './routes/key-routes.js';
import { tokenRoleRoutes } from './routes/token-role-routes.js';
import { tokenRoutes } from './routes/token-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';
import { wrappingRoutes } from './routes/wrapping-routes.js';
import { serverKey } from './storage/server-keys.js';
import { leveledLog } from './log/log-level.js';
import { StorageAvailability } from './storage/storage-availability.js';
import type { ServerOptions } from './server-options.js';
import type { LogEntry } from './log/log-level.js';
import { loggedPath } from './tokens/token-path.js';
import { TokenRoleStore } from './tokens/token-role.js';
import { TokenStore } from './tokens/token-store.js';
import { DEFAULT_MAX_TTL_SECONDS } from './tokens/token-ttl.js';
import { WrappedResponses } from './wrapping/wrapped-responses.js';
import { Webhooks } from './webhooks/webhooks.js';
import type { StrongroomServer } from './strongroom-server.js';

export type { StrongroomServer } from './strongroom-server.js';

// Load balancers ask this every few seconds: logged below info, unless it fails.
const HEALTH_PATH = `${API_PREFIX}sys/health`;
const isHealthCheck = (path: string) => path === HEALTH_PATH || path.startsWith(`${HEALTH_PATH}/`);

const describeError = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Makes the server: the mount table (the KV engine at `secret/` and the AWS auth method at `auth/aws/` until changed
 * over sys/mounts and sys/auth), client tokens at `auth/token/`, and ACL policies, the audit device and change events
 * under `sys/`, all over one storage (in memory unless {@link ServerOptions.storage} says otherwise). Nothing listens
 * until `listen()`; the stored state is made ready at once, and `ready()` reports how that went.
 */
export function createServer(options: ServerOptions = {}): StrongroomServer {
  const clock = options.clock ?? systemClock;
  const metrics = new ServerMetrics();
  const given = options.storage ?? new MemoryStorage();
  const log = leveledLog(options.log ?? logToStandardOutput, options.logLevel);
  const availability = new StorageAvailability(log);
  // Every storage call of the engines and the server is timed, and watched for outages, at this one edge.
  const storage = observedStorage(
    given,
    bothWatchers(
      availability.watcher,
      timedCalls((...call) => metrics.storageCall(...call)),
    ),
  );
  // Checked here under their own names: the KV engine, which maxBodyBytes also bounds, would refuse it as maxValueBytes.
  const limits = transportLimits(options);
  const { maxBodyBytes } = limits;
  const budget = new BodyBudget(limits.maxInflightBodyBytes);
  const maxTtl = options.tokenMaxTtl ?? DEFAULT_MAX_TTL_SECONDS;
  const eventLimits = subscriptionLimits(options);
  const note = (level: 'info' | 'warn', msg: string, detail: object) =>
    log({ time: new Date().toISOString(), level, msg, ...detail });
  // A storage outage is logged once, when it begins and when it ends (storage-availability.ts), not per request.
  const onInternalError = (error: unknown) => {
    if (error instanceof StorageUnavailable) return;
    log({ time: new Date().toISOString(), level: 'error', msg: 'engine fault', error: describeError(error) });
  };

  // Tokens' default and maximum TTLs are also the mounts' lease TTLs wherever a mount has none of its own, as in Vault.
  const system = { defaultLeaseTtl: options.tokenTtl ?? maxTtl, maxLeaseTtl: maxTtl };
  const engines = new EngineFactory({
    storage,
    clock,
    onInternalError,
    maxValueBytes: maxBodyBytes,
    kvOptions: options.kvOptions,
    authOptions: {
      ...(options.cloud ? { cloud: options.cloud } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...options.authOptions,
    },
    system,
  });
  const { kv, auth } = engines;
  const table = new MountTable(new MountTableStore(storage), engines, storage);
  const store = new JsonStore(storage);
  const policies = new PolicyStore(store);
  const givenRoot = options.rootToken || undefined;
  const allow = options.webhookAllow ?? [];
  const webhooks = new Webhooks({ store, clock, allow, delivery: options.webhookDelivery, table, note });

  let closing = false;
  const state = (async () => {
    const [tokenKey, auditKey] = await Promise.all([
      serverKey(store, 'sys/keys/token-hash'),
      serverKey(store, 'sys/keys/audit-hmac'),
    ]);
    const tokens = new TokenStore(store, clock, tokenKey, {
      defaultTtl: options.tokenTtl ?? maxTtl,
      systemMaxTtl: maxTtl,
      maxTokens: options.maxTokens ?? 100_000,
      maxTokensPerParent: options.maxTokensPerParent ?? 1_000,
      maxTokensPerRole: options.maxTokensPerRole ?? 10_000,
    });
    metrics.countTokens(() => tokens.liveCount);
    const roles = new TokenRoleStore(store);
    const wrapping = new WrappedResponses(store, tokens, clock);
    const audit = new AuditLog({
      store,
      configured: options.auditFile === undefined ? undefined : { file: options.auditFile, key: auditKey },
      refreshMs: options.auditRefreshMs ?? 5000,
      onWriteFailure: () => metrics.auditFailure(),
    });
    await audit.open();
    await policies.initialise();
    await table.initialise();
    // A given root token is stored now, so it works whether or not ready() is ever called. An empty value (an unset
    // variable passed on) is none given, as for the command: it would retire the root token.
    if (givenRoot !== undefined) await tokens.ensureRoot(givenRoot);
    await tokens.sweep();
    if (!closing) webhooks.start();
    const routes = [
      ...sysRoutes({ policies, clock, storageReadable: () => availability.readable(storage) }),
      ...auditRoutes(audit),
      ...mountRoutes({ table, system, policies, tokens }),
      // The storage as given: the wrappers above hide whether it is an EncryptedStorage.
      ...keyRoutes(given),
      ...tokenRoutes({ tokens, roles, authAt: (path) => table.authMethodAt(path), clock, policies }),
      ...tokenRoleRoutes(roles),
      ...wrappingRoutes({ wrapping, tokens, policies }),
      ...webhookRoutes(webhooks),
      metricsRoute(metrics, { unauthenticated: options.metricsUnauthenticated === true }),
      ...eventRoutes({
        kv,
        mount: 'secret/',
        served: async () => (await table.find('secret/'))?.engine === kv,
        tokens,
        policies,
        clock,
        limits: eventLimits,
        onSlowSubscriber: (detail) => note('warn', 'event subscriber fell behind; stream closed', detail),
      }),
    ];
    return {
      tokens,
      audit,
      wrapping,
      dispatch: createDispatcher({ mounts: table, routes, tokens, policies, audit, clock, wrapping }),
    };
  })();
  // Failure surfaces through ready(), listen() and each request; never as an unhandled rejection.
  state.catch(() => undefined);

  /** What `state` resolved to, once it has. */
  let resolvedState: Awaited<typeof state> | undefined;
  let madeRoot: Promise<string | undefined> | undefined;
  let periodicTimer: NodeJS.Timeout | undefined;

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const started = performance.now();
    let method = req.method;
    let request: ApiRequest | undefined;
    let outcome: {
      result: ApiResult;
      caller?: { accessor: string } | undefined;
      error?: unknown;
    };
    try {
      // Awaited only until it has resolved: an await costs every request a turn of the microtask queue.
      const { dispatch, tokens } = (resolvedState ??= await state);
      // Bytes held for this body count against the budget until the request is answered.
      const hold = budget.open();
      res.once('close', () => hold.release());
      const authenticated = async (token: string | undefined) => (await tokens.find(token)) !== undefined;
      request = await readRequest(req, {
        maxBodyBytes,
        unauthenticated: { maxBodyBytes: limits.maxUnauthenticatedBodyBytes, authenticated },
        hold,
        timeoutMs: limits.bodyTimeoutMs,
      });
      method = request.method;
      outcome = await dispatch(request, requestId);
    } catch (error) {
      outcome = { result: errorResult(error), error };
    }
    const gone = outcome.error instanceof ClientGone;
    // A body left unread (413) cannot be skipped reliably, and a closing server takes no further requests.
    if (!gone) sendResult(res, outcome.result, { close: closing || !req.complete });
    if (!gone && outcome.result.stream) res.once('close', metrics.subscriberOpened());
    const { status } = outcome.result;
    const seconds = (performance.now() - started) / 1000;
    metrics.request({ method, path: request?.path, body: request?.body, status: gone ? undefined : status, seconds });
    // Path only: no query, headers or body, which is where tokens and secrets travel; nor a token in the path.
    const path = loggedPath(req.url ?? '');
    const entry: LogEntry = {
      time: new Date().toISOString(),
      level: status >= 500 && !gone ? 'error' : isHealthCheck(path) ? 'debug' : 'info',
      request_id: requestId,
      remote: req.socket.remoteAddress,
      method,
      path,
      status: gone ? 'client closed the connection' : status,
      ms: Math.round(seconds * 10_000) / 10,
    };
    // Set after the others rather than spread in: every request is logged, and a spread costs it an object of its own.
    if (outcome.caller) entry.accessor = outcome.caller.accessor;
    if (status >= 500 && !gone && outcome.error !== undefined) entry.error = describeError(outcome.error);
    log(entry);
  }

  function handler(req: http.IncomingMessage, res: http.ServerResponse, next?: (error?: unknown) => void): void {
    if (next && !(req.url ?? '').startsWith(API_PREFIX)) return next();
    void serve(req, res);
  }

  const server = acceptListMethod(
    http.createServer(
      {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        // Node checks both timeouts this often; its 30 s default would let a slow client outstay them.
        connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
      },
      handler,
    ),
  );
  // TLS is terminated in the listener and the decrypted stream handed to the HTTP server, so LIST and the timeouts work
  // alike; a handshake gets as long as a head.
  const listener = createListener(server, {
    tls: options.tls,
    maxConnections: limits.maxConnections,
    handshakeTimeoutMs: limits.headersTimeoutMs,
  });

  async function runPeriodic(): Promise<void> {
    try {
      const { tokens, wrapping } = await state;
      await runMountPeriodic(table);
      await tokens.sweep();
      await wrapping.sweep();
    } catch (error) {
      log({ time: new Date().toISOString(), level: 'error', msg: 'periodic work failed', error: describeError(error) });
    }
  }

  return {
    kv,
    auth,
    handler,
    runPeriodic,
    reopenAuditFile: async () => (await state).audit.reopen(),
    ready: () => {
      // A root token is made only when asked for, once: a start that fails before (a port taken, say) leaves none behind
      // that nobody saw, and the next start makes and shows one.
      madeRoot ??= state.then(({ tokens }) => (givenRoot === undefined ? tokens.ensureRoot(undefined) : undefined));
      return madeRoot;
    },

    async listen({ port = 8200, host = '127.0.0.1' } = {}) {
      await state;
      trackConnections(server);
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(port, host, () => {
          listener.off('error', reject);
          resolve();
        });
      });
      periodicTimer = setInterval(() => void runPeriodic(), options.periodicIntervalMs ?? 60_000).unref();
      const bound = listener.address() as AddressInfo;
      const scheme = options.tls ? 'https' : 'http';
      return `${scheme}://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
    },

    async close({ graceMs = 10_000 } = {}) {
      closing = true;
      clearInterval(periodicTimer);
      await webhooks.stop().catch(() => undefined);
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs).unref();
        if (!listener.listening) {
          clearTimeout(force);
          return resolve();
        }
        server.closeIdleConnections();
        listener.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.close();
      });
      await (await state.catch(() => undefined))?.audit.close();
    },
  };
}
