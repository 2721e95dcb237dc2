/**
 * Forwards a client's signed sts:GetCallerIdentity to the STS endpoint the operator chose. node:http(s) is used
 * because fetch replaces a Host override with the URL's host, and the client's signature covers its own Host. The
 * connection goes only to `target`; the client's URL contributes the Host header and the path it signed, nothing else.
 * Redirects are returned, never followed.
 */
import http from 'node:http';
import https from 'node:https';
import { CloudUnavailable, InvalidRequest } from '../../../lib/errors.js';
import type { HttpResponseSnapshot, SignedHttpRequest } from '../../../ports/cloud.js';
import { describeTransportError, isRetryableStatus, withRetries, type Outcome, type RetryPolicy } from './retry.js';

/** STS answers are small; a larger one is not an answer worth reading. */
const maxAnswerBytes = 1024 * 1024;

/** Connection-level headers describe the client's hop, not the signed request, and could desynchronise framing. */
const hopByHopHeaders = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-connection',
]);

export interface ForwardOptions {
  timeoutMs: number;
  policy: RetryPolicy;
}

class TransportFailure extends Error {}

/** The raw header list: client spelling and order kept, the client's Host, and the Content-Length it signed. */
function rawHeaders(request: SignedHttpRequest, host: string, body: Buffer): string[] {
  const raw = ['Host', host];
  let contentLength: string | undefined;
  for (const [name, values] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (hopByHopHeaders.has(lower)) continue;
    for (const value of values) {
      if (lower === 'content-length') {
        if (contentLength !== undefined) {
          throw new InvalidRequest('the signed request has several Content-Length headers');
        }
        contentLength = value.trim();
      }
      raw.push(name, value);
    }
  }
  if (contentLength === undefined) raw.push('Content-Length', String(body.length));
  else if (contentLength !== String(body.length)) {
    throw new InvalidRequest("the signed request's Content-Length does not match its body");
  }
  return raw;
}

function send(
  target: URL,
  method: string,
  headers: string[],
  body: Buffer,
  timeoutMs: number,
): Promise<HttpResponseSnapshot> {
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let request: http.ClientRequest;
    try {
      request = transport.request(target, { method, headers, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      // Node validates names and values before anything is sent: the client's headers are not sendable.
      reject(new InvalidRequest(`the signed request cannot be forwarded: ${(error as Error).message}`));
      return;
    }
    request.on('error', (error) => reject(new TransportFailure(describeTransportError(error))));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxAnswerBytes) request.destroy(new Error(`answer larger than ${maxAnswerBytes} bytes`));
        else chunks.push(chunk);
      });
      response.on('error', (error) => reject(new TransportFailure(describeTransportError(error))));
      response.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(response.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : (value ?? ''),
          ]),
        );
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.end(body);
  });
}

export async function forwardSignedRequest(
  target: URL,
  request: SignedHttpRequest,
  options: ForwardOptions,
): Promise<HttpResponseSnapshot> {
  let clientUrl: URL;
  try {
    clientUrl = new URL(request.url);
  } catch {
    throw new InvalidRequest("the signed request's URL is not a valid URL");
  }
  const body = Buffer.from(request.body, 'utf8');
  const headers = rawHeaders(request, clientUrl.host, body);
  // The path the client signed reaches STS; an endpoint with a path (a proxy) keeps it as a prefix.
  const url = new URL(target.href);
  url.pathname = `${target.pathname.replace(/\/+$/, '')}${clientUrl.pathname}`;
  url.search = clientUrl.search;
  return withRetries(options.policy, async (): Promise<Outcome<HttpResponseSnapshot>> => {
    try {
      const answer = await send(url, request.method, headers, body, options.timeoutMs);
      return { value: answer, retryable: isRetryableStatus(answer.status), retryAfter: answer.headers['retry-after'] };
    } catch (error) {
      if (!(error instanceof TransportFailure)) throw error;
      const unreachable = new CloudUnavailable(`STS endpoint ${target.origin} unreachable: ${error.message}`);
      return { retryable: true, error: unreachable };
    }
  });
}
