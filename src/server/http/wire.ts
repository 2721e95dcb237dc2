// Vault's wire format for answers: the success envelope, error bodies, and writing either to a node:http response.
// Only this layer knows the envelope; engines and routes answer `data`, `warnings` and `auth`.
import type { ServerResponse } from 'node:http';
import { isStrongroomError } from '../../lib/errors.js';
import type { EngineResponse } from '../../core/framework/request.js';

export interface ApiResult {
  status: number;
  /** Sent as JSON; absent means an empty answer. */
  body?: object;
  /** A body in another format than JSON (the Prometheus exposition), sent as it is. */
  text?: { contentType: string; body: string };
  /** A Server-Sent Events stream instead of a body: called with the open response, answers how to stop it. */
  stream?: (res: ServerResponse) => () => void;
}

export interface EnvelopeContent {
  data?: unknown;
  warnings?: string[] | undefined;
  auth?: object | undefined;
  lease_duration?: number | undefined;
}

export function envelope(
  requestId: string,
  { data, warnings, auth, lease_duration }: EnvelopeContent,
): Record<string, unknown> {
  return {
    request_id: requestId,
    lease_id: '',
    renewable: false,
    lease_duration: lease_duration ?? 0,
    data: data ?? null,
    wrap_info: null,
    warnings: warnings && warnings.length > 0 ? warnings : null,
    auth: auth ?? null,
  };
}

export function ok(requestId: string, data: unknown, warnings?: string[]): ApiResult {
  return { status: 200, body: envelope(requestId, { data, warnings }) };
}

export const noContent: ApiResult = { status: 204 };

/**
 * An engine's answer on the wire: error bodies as they are, everything else inside the envelope, 204 (or a body-less
 * 404, as KV's PATCH of a missing key) empty.
 */
export function engineResult(requestId: string, response: EngineResponse): ApiResult {
  const { status, body } = response;
  if (body === undefined || status === 204) return { status };
  if ('errors' in body) return { status, body: { errors: body.errors } };
  return { status, body: envelope(requestId, body) };
}

/** Typed errors keep their status and message; anything else is a server fault whose text is not shown. */
export function errorResult(error: unknown): ApiResult {
  if (isStrongroomError(error))
    return { status: error.status, body: { errors: error.publicMessage ? [error.publicMessage] : [] } };
  return { status: 500, body: { errors: ['internal error'] } };
}

/** `close`: close the connection after answering (shutdown, or a body left unread). */
export function sendResult(res: ServerResponse, result: ApiResult, { close = false } = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (result.stream) {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.flushHeaders();
    const stop = result.stream(res);
    res.once('close', stop);
    return;
  }
  const headers: Record<string, string | number> = {
    'Cache-Control': 'no-store',
    ...(close ? { Connection: 'close' } : {}),
  };
  if (result.text) {
    const { contentType, body } = result.text;
    res
      .writeHead(result.status, { ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) })
      .end(body);
    return;
  }
  if (result.status === 204 || result.body === undefined) {
    res.writeHead(result.status, headers).end();
    return;
  }
  const text = `${JSON.stringify(result.body)}\n`;
  res
    .writeHead(result.status, {
      ...headers,
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
    })
    .end(text);
}
