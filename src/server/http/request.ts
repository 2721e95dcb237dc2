// The HTTP edge: a node:http request becomes the transport-neutral request the dispatcher works with. These are the
// body rules Vault clients rely on: no Content-Type means JSON, `GET ?list=true` is LIST, bad JSON is a Vault-shaped
// 400, an oversized body a 413, and the path is checked after percent-decoding.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import { InvalidRequest, NotFound, PayloadTooLarge, RequestTimeout, ServiceUnavailable } from '../../lib/errors.js';
import { validatePath } from '../../core/framework/path.js';
import { checkJsonDocument } from '../../core/framework/request-shape.js';
import type { HttpMethod } from '../../core/framework/request.js';
import type { BodyHold } from './body-budget.js';

export const API_PREFIX = '/v1/';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'LIST', 'SCAN']);
const EMPTY_BODY = Buffer.alloc(0);
// Headers that carry the caller's credentials: used to find the token, never passed on to an engine.
const CREDENTIAL_HEADERS = new Set(['x-vault-token', 'authorization']);

/** A request's method as the server sees it: Vault's methods (`LIST` and `SCAN` among them) and `HEAD`. */
export type ApiMethod = HttpMethod | 'HEAD';

/**
 * One request as the HTTP edge hands it on, read and checked, free of node:http: what the dispatcher routes, and what
 * `createEngineHandler`'s `authorize` is shown beside each capability check. Its token is in `token` alone.
 */
export interface ApiRequest {
  /** `GET ?list=true` arrives as LIST, `GET ?scan=true` as SCAN. */
  method: ApiMethod;
  /** Decoded, without `/v1/` (e.g. `secret/data/app`). */
  path: string;
  /** Without `list`. */
  query: Record<string, string | string[]>;
  /** The parsed JSON body of a POST, PUT or PATCH, whatever its Content-Type; undefined otherwise, or when empty. */
  body: unknown;
  /** Without the credential headers. */
  headers: Record<string, string | string[] | undefined>;
  /** From `X-Vault-Token`, else from `Authorization: Bearer`; undefined when neither is sent. */
  token: string | undefined;
  /** The client's address; an IPv4 client of a dual-stack socket as plain IPv4 (`10.0.0.1`, not `::ffff:10.0.0.1`). */
  remoteAddress: string | undefined;
  remotePort: number | undefined;
}

/** The client went away before its request was read: nobody is left to answer, and it is not a server fault. */
export class ClientGone extends Error {
  constructor() {
    super('client closed the connection before sending its whole request');
  }
}

function parseQuery(rawQuery: string): Record<string, string | string[]> {
  if (rawQuery === '') return {};
  const values = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(rawQuery)) values.set(key, [...(values.get(key) ?? []), value]);
  // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
  return Object.fromEntries([...values].map(([key, list]) => [key, list.length === 1 ? list[0]! : list]));
}

function isTrue(value: string | string[] | undefined): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && ['true', 't', '1'].includes(first.toLowerCase());
}

export interface BodyLimits {
  /** Larger bodies get 413. */
  maxBodyBytes: number;
  /**
   * A caller without a valid token may send at most `maxBodyBytes` here (its own, smaller): a longer body (declared,
   * or chunked) is read only once `authenticated(token)` has said yes, and otherwise gets 413 before any of it is read.
   */
  unauthenticated?: { maxBodyBytes: number; authenticated: (token: string | undefined) => Promise<boolean> };
  /** The request's share of the bytes all bodies in flight may hold; past it, 503. */
  hold?: BodyHold;
  /** Time allowed for the body once reading it starts; past it, 408. */
  timeoutMs?: number;
}

/** The most this request's body may hold, and whose limit that is: a token is looked up only for a body that needs it. */
async function bodyLimit(req: IncomingMessage, { maxBodyBytes, unauthenticated }: BodyLimits) {
  const full = { bytes: maxBodyBytes, whose: '' };
  if (!unauthenticated || unauthenticated.maxBodyBytes >= maxBodyBytes) return full;
  const anonymous = { bytes: unauthenticated.maxBodyBytes, whose: ' for a request without a valid token' };
  // Without Transfer-Encoding the body is at most its Content-Length (none: empty), as node:http reads it.
  if (req.headers['transfer-encoding'] === undefined && declaredLength(req.headers) <= anonymous.bytes)
    return anonymous;
  return (await unauthenticated.authenticated(tokenFrom(req.headers))) ? full : anonymous;
}

/**
 * Collects the body up to its limit. Past the limit, the budget or the time allowed it stops collecting and rejects at
 * once (the bytes held go back to the budget), so the answer is written while the rest of the body drains.
 */
async function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const { bytes: limit, whose } = await bodyLimit(req, limits);
  const tooLarge = () => new PayloadTooLarge(`request body is larger than the limit of ${limit} bytes${whose}`);
  if (declaredLength(req.headers) > limit) throw tooLarge();
  if (req.readableEnded) return EMPTY_BODY;
  const { hold, timeoutMs } = limits;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: Error) => {
      req.off('data', onData);
      clearTimeout(timer);
      hold?.release();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return stop(tooLarge());
      if (hold && !hold.take(chunk.length))
        return stop(new ServiceUnavailable('too many request bodies in flight: retry later'));
      chunks.push(chunk);
    };
    const late = () => stop(new RequestTimeout(`request body did not arrive within ${timeoutMs} ms`));
    // A body node:http has already read whole (every bodiless request's) cannot be late: no timer for it.
    const timer = timeoutMs === undefined || req.complete ? undefined : setTimeout(late, timeoutMs);
    req.on('data', onData);
    req.once('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    req.once('error', () => stop(new ClientGone()));
    req.once('close', () => {
      if (!req.complete) stop(new ClientGone());
    });
  });
}

/**
 * Whether a body follows the head, by the framing node:http's parser goes by: a request with neither Transfer-Encoding
 * nor a Content-Length above 0 has none. Most requests are such GETs, which then cost no listeners, promise or turn.
 */
function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || declaredLength(headers) !== 0;
}

/** The body length the head declares: its Content-Length, 0 without one. */
function declaredLength(headers: IncomingHttpHeaders): number {
  return Number(headers['content-length'] ?? 0);
}

/** A dual-stack socket reports IPv4 callers as ::ffff:a.b.c.d; CIDR checks want the plain address. */
function plainAddress(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

function tokenFrom(headers: IncomingHttpHeaders): string | undefined {
  const vaultToken = headers['x-vault-token'];
  if (typeof vaultToken === 'string' && vaultToken !== '') return vaultToken;
  return /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
}

/** Parses a body as Vault does, whatever its Content-Type (none at all included); PATCH media types go to the engine. */
export function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    // V8's parse errors quote the input, which may be a secret: the message stays generic.
    throw new InvalidRequest('failed to parse JSON input: the body is not valid JSON');
  }
}

/** The decoded and checked path below `/v1/`; throws 404 outside the API and 400 for a traversal. */
export function apiPath(url: string): { path: string; rawQuery: string } {
  const queryStart = url.indexOf('?');
  const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
  if (!rawPath.startsWith(API_PREFIX)) throw new NotFound(`unsupported path ${JSON.stringify(rawPath)}`);
  let path: string;
  try {
    path = decodeURIComponent(rawPath.slice(API_PREFIX.length));
  } catch {
    throw new InvalidRequest('invalid path: malformed percent-encoding');
  }
  // After percent-decoding, so `%2e%2e` and `%2F%2F` are refused like `..` and `//`, before anything is looked up.
  validatePath(path);
  return { path, rawQuery: queryStart < 0 ? '' : url.slice(queryStart + 1) };
}

/** Reads and checks one request. Throws a typed error (400, 404, 405, 408, 413, 503) for anything malformed. */
export async function readRequest(req: IncomingMessage, limits: BodyLimits): Promise<ApiRequest> {
  const { path, rawQuery } = apiPath(req.url ?? '/');
  const query = parseQuery(rawQuery);
  const given = req.method ?? 'GET';
  if (!KNOWN_METHODS.has(given)) throw new InvalidRequest(`unsupported method ${JSON.stringify(given)}`);
  const method = (
    given === 'GET' && isTrue(query.list) ? 'LIST' : given === 'GET' && isTrue(query.scan) ? 'SCAN' : given
  ) as ApiMethod;
  if (method === 'LIST') delete query.list;
  if (method === 'SCAN') delete query.scan;

  const raw = hasBody(req.headers) ? await readBody(req, limits) : EMPTY_BODY;
  const body = BODY_METHODS.has(method) ? parseBody(raw) : undefined;
  // Here, before the audit entry and the server's own routes serialise or walk it: a body deeper than the engines
  // accept could overflow the stack there (a 500 for anyone), where the engines answer it with a 400.
  checkJsonDocument(body, 'the request body');
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name)));
  return {
    method,
    path,
    query,
    body,
    headers,
    token: tokenFrom(req.headers),
    remoteAddress: plainAddress(req.socket.remoteAddress),
    remotePort: req.socket.remotePort,
  };
}
