// The example server: strongroom's two engines behind a node:http server that speaks Vault's HTTP API, with client
// tokens, ACL policies and periodic work. It imports only the public package, as a user's service would.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { AuthMethod, KvEngine, MemoryStorage, acceptListMethod, systemClock } from 'strongroom';
import { createDispatcher } from './server/dispatch.mjs';
import { errorResult, readRequest, sendResult } from './server/http.mjs';
import { PolicyStore } from './server/policies.mjs';
import { systemRoutes } from './server/routes.mjs';
import { DEFAULT_MAX_TTL_SECONDS } from './server/token-ttl.mjs';
import { TokenStore, newToken } from './server/tokens.mjs';

/**
 * @typedef {object} ServerOptions
 * @property {import('strongroom').Storage} [storage]   shared by both engines, each under its own key prefix; in memory by default
 * @property {import('strongroom').Clock} [clock]
 * @property {string} [rootToken]               a random one by default
 * @property {import('strongroom').CloudProvider} [cloud]   AuthMethod's cloud provider (the built-in AWS one by default)
 * @property {Record<string, string | undefined>} [env]      AuthMethod's environment (process.env by default)
 * @property {Record<string, unknown>} [authOptions]         further AuthMethod options
 * @property {Record<string, unknown>} [kvOptions]           further KvEngine options
 * @property {number} [maxBodyBytes]            larger bodies get 413; 1 MiB by default
 * @property {number} [periodicIntervalMs]      how often periodic work runs; every minute by default
 * @property {number} [tokenTtl]                seconds; for grants without a TTL (tokenMaxTtl by default)
 * @property {number} [tokenMaxTtl]             seconds; the ceiling of every token and the auth mount's max TTL (768h)
 * @property {(entry: Record<string, unknown>) => void} [log]   one call per request; JSON lines on stdout by default
 */

/** @param {unknown} error */
function describeError(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Builds the server. Nothing listens until `listen()`.
 * @param {ServerOptions} [options]
 */
export function createServer(options = {}) {
  const clock = options.clock ?? systemClock;
  const storage = options.storage ?? new MemoryStorage();
  const log = options.log ?? ((entry) => console.log(JSON.stringify(entry)));
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const periodicIntervalMs = options.periodicIntervalMs ?? 60_000;
  const onInternalError = (error) => log({ time: new Date().toISOString(), level: 'error', msg: 'engine fault', error: describeError(error) });

  const maxTtl = options.tokenMaxTtl ?? DEFAULT_MAX_TTL_SECONDS;
  // One storage, a key prefix per mount, as Vault gives each mount its own storage view.
  const kv = new KvEngine({ storage, storagePrefix: 'secret/', clock, onInternalError, ...options.kvOptions });
  const auth = new AuthMethod({
    storage,
    storagePrefix: 'auth/cloud/',
    clock,
    onInternalError,
    mountMaxTtl: maxTtl,
    ...(options.cloud ? { cloud: options.cloud } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...options.authOptions,
  });
  const tokens = new TokenStore({ clock, defaultTtl: options.tokenTtl ?? maxTtl, maxTtl });
  const policies = new PolicyStore();
  const rootToken = options.rootToken ?? newToken();
  tokens.addRoot(rootToken);

  const mounts = [
    { prefix: 'secret/', engine: kv, type: 'kv', options: { version: '2' } },
    { prefix: 'auth/cloud/', engine: auth, type: 'cloud', tokenIssuer: 'cloud' },
  ];
  const dispatch = createDispatcher({ mounts, routes: systemRoutes({ mounts, tokens, policies, auth, clock }), tokens, policies });

  let closing = false;
  /** @type {NodeJS.Timeout | undefined} */
  let periodicTimer;

  const server = acceptListMethod(
    http.createServer(async (req, res) => {
      const requestId = randomUUID();
      const started = performance.now();
      let method = req.method;
      /** @type {{ result: import('./server/http.mjs').ApiResult, accessor?: string, error?: unknown }} */
      let outcome;
      try {
        const request = await readRequest(req, { maxBodyBytes });
        method = request.method;
        outcome = await dispatch(request, requestId);
      } catch (error) {
        outcome = { result: errorResult(error), error };
      }
      // A body left unread (413) cannot be skipped reliably, and a closing server takes no further requests.
      sendResult(res, outcome.result, { close: closing || !req.complete });
      const { status } = outcome.result;
      // Path only: no query, headers or body, which is where tokens and secrets travel.
      log({
        time: new Date().toISOString(),
        level: status >= 500 ? 'error' : 'info',
        request_id: requestId,
        remote: req.socket.remoteAddress,
        method,
        path: (req.url ?? '').split('?')[0],
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ...(outcome.accessor ? { accessor: outcome.accessor } : {}),
        ...(status >= 500 && outcome.error !== undefined ? { error: describeError(outcome.error) } : {}),
      });
    }),
  );

  /** Runs the due background work once: the auth method's tidy, and forgetting expired tokens. */
  async function runPeriodic() {
    try {
      await auth.periodic();
      tokens.sweep();
    } catch (error) {
      log({ time: new Date().toISOString(), level: 'error', msg: 'periodic work failed', error: describeError(error) });
    }
  }

  return {
    rootToken,
    kv,
    auth,
    tokens,
    policies,
    server,
    runPeriodic,

    /**
     * Starts listening; resolves to the base URL (port 0 picks a free port).
     * @param {{ port?: number, host?: string }} [address]
     */
    listen({ port = 8200, host = '127.0.0.1' } = {}) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          periodicTimer = setInterval(runPeriodic, periodicIntervalMs).unref();
          const bound = /** @type {import('node:net').AddressInfo} */ (server.address());
          resolve(`http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`);
        });
      });
    },

    /**
     * Stops taking connections, lets requests in flight finish, closes idle keep-alive connections, and after
     * `graceMs` cuts whatever is left.
     * @param {{ graceMs?: number }} [options]
     */
    close({ graceMs = 10_000 } = {}) {
      closing = true;
      clearInterval(periodicTimer);
      return new Promise((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs).unref();
        server.close(() => {
          clearTimeout(force);
          resolve(undefined);
        });
      });
    },
  };
}
