import { runGuarded } from '../../lib/calls.js';
import type { EngineRequest } from './request.js';

/** Names of headers that carry credentials (Authorization, X-Vault-Token, cookies, session tokens, ...). */
const CREDENTIAL_HEADER = /authorization|token|cookie|secret|signature|credential|session|api-?key|password/i;

/**
 * The request as onInternalError receives it: what a log needs to tell requests apart (method, path, query, headers,
 * remote address), without the body, which holds what is being written or presented (KV data, `secret_key`, login
 * documents and nonces), and with the values of credential headers replaced.
 */
export function requestForLog(request: EngineRequest): EngineRequest {
  const { method, path, query, headers, remoteAddress } = request;
  const logged: EngineRequest = { method, path };
  if (query !== undefined) logged.query = query;
  if (remoteAddress !== undefined) logged.remoteAddress = remoteAddress;
  if (headers !== undefined && headers !== null) {
    logged.headers = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        value !== undefined && CREDENTIAL_HEADER.test(name) ? '[redacted]' : value,
      ]),
    );
  }
  return logged;
}

/**
 * Hands a server fault to the service's `onInternalError` hook with the request as logged. The request has been
 * answered (500) already: a hook that throws or rejects must not change that answer or end the process.
 */
export function reportInternalError(
  hook: ((error: unknown, request: EngineRequest) => void) | undefined,
  error: unknown,
  request: EngineRequest,
): void {
  if (hook) runGuarded(() => hook(error, requestForLog(request)));
}
