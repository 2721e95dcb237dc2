// One engine behind Vault's wire format, without the server's tokens and policies: for a service that mounts only the
// KV engine (or only the auth method) in its own HTTP stack and decides access itself.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidRequest, NotFound, UnsupportedOperation } from '../../lib/errors.js';
import type { CapabilityCheck, EngineRequest, EngineResponse } from '../../core/framework/request.js';
import { ClientGone, readRequest, type ApiRequest } from './request.js';
import { engineResult, errorResult, sendResult } from './wire.js';

/** What {@link createEngineHandler} serves, and who decides access. Only `mount` and `engine` are required. */
export interface EngineHandlerOptions {
  /** Where the engine answers, below `/v1/`: e.g. `secret/`. */
  mount: string;
  /** A `KvEngine` or an `AuthMethod`, or anything else that answers engine requests the same way. */
  engine: {
    /** Answers one request whose path is relative to the mount (`data/app` for `/v1/secret/data/app`). */
    handle(request: EngineRequest): Promise<EngineResponse>;
  };
  /** Asked for every operation with the full path (`secret/data/app`); without it every request is allowed. */
  authorize?: (check: CapabilityCheck, request: ApiRequest) => boolean | Promise<boolean>;
  /** Larger bodies get 413; 1 MiB by default. */
  maxBodyBytes?: number;
}

/**
 * A node:http request listener serving one engine at `/v1/<mount>`, with Vault's body rules and wire format but
 * without the server's tokens, policies or audit log. Requests elsewhere go to `next` when given (Express middleware
 * style), else get a 404. Wrapped responses (`X-Vault-Wrap-TTL`) are refused with a 400: wrapping needs the server.
 */
export function createEngineHandler(options: EngineHandlerOptions) {
  const mount = options.mount.endsWith('/') ? options.mount : `${options.mount}/`;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const { authorize } = options;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const request = await readRequest(req, { maxBodyBytes });
      if (!request.path.startsWith(mount)) throw new NotFound(`no engine at ${JSON.stringify(request.path)}`);
      if (request.method === 'HEAD') throw new UnsupportedOperation('HEAD is not supported');
      // Wrapping needs the server's tokens, which this handler has not; answering unwrapped would hand the caller what
      // was meant for whoever gets the wrapping token.
      if ([request.headers['x-vault-wrap-ttl']].flat().some((ttl) => ttl !== undefined && ttl.trim() !== ''))
        throw new InvalidRequest('response wrapping needs the strongroom server: leave out X-Vault-Wrap-TTL here');
      const response = await options.engine.handle({
        method: request.method,
        path: request.path.slice(mount.length),
        query: request.query,
        body: request.body,
        headers: request.headers,
        ...(request.remoteAddress !== undefined ? { remoteAddress: request.remoteAddress } : {}),
        ...(authorize
          ? { authorize: (check: CapabilityCheck) => authorize({ ...check, path: mount + check.path }, request) }
          : {}),
      });
      sendResult(res, engineResult(randomUUID(), response), { close: !req.complete });
    } catch (error) {
      if (!(error instanceof ClientGone)) sendResult(res, errorResult(error), { close: !req.complete });
    }
  }

  return (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    if (next && !(req.url ?? '').startsWith(`/v1/${mount}`)) return next();
    void serve(req, res);
  };
}
