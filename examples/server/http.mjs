// The HTTP edge: turns a node:http request into the transport-neutral request the routes work with, and route
// results back into Vault's wire format. Nothing here knows about engines, tokens or policies.
import { isIPv4 } from 'node:net';
import { InvalidRequest, NotFound, PayloadTooLarge, isStrongroomError, validatePath } from 'strongroom';

const API_PREFIX = '/v1/';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
// Headers that carry the caller's credentials: used to find the token, never passed on to an engine.
const CREDENTIAL_HEADERS = new Set(['x-vault-token', 'authorization']);

/**
 * @typedef {object} ApiRequest
 * @property {'GET'|'POST'|'PUT'|'PATCH'|'DELETE'|'LIST'} method   `GET ?list=true` arrives as LIST
 * @property {string} path        decoded, without `/v1/` (e.g. `secret/data/app`)
 * @property {Record<string, string | string[]>} query              without `list`
 * @property {unknown} body       the parsed JSON body, or undefined
 * @property {Record<string, string | string[] | undefined>} headers  without credential headers
 * @property {string | undefined} token
 * @property {string | undefined} remoteAddress
 */

/**
 * @typedef {object} ApiResult
 * @property {number} status
 * @property {object} [body]      sent as JSON; no body means an empty response
 */

/** @param {string} rawQuery */
function parseQuery(rawQuery) {
  /** @type {Map<string, string[]>} */
  const values = new Map();
  for (const [key, value] of new URLSearchParams(rawQuery)) values.set(key, [...(values.get(key) ?? []), value]);
  // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
  return Object.fromEntries([...values].map(([key, list]) => [key, list.length === 1 ? list[0] : list]));
}

/** @param {string | string[] | undefined} value */
function isTrue(value) {
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && ['true', 't', '1'].includes(first.toLowerCase());
}

/**
 * Collects the body up to `limit` bytes. Past the limit it stops collecting but leaves the stream to drain, so the
 * 413 can still be written before the connection closes.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @returns {Promise<Buffer>}
 */
function readBody(req, limit) {
  const tooLarge = () => new PayloadTooLarge(`request body is larger than the limit of ${limit} bytes`);
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      reject(tooLarge());
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/**
 * The caller's address as engines and CIDR checks expect it: a dual-stack socket reports IPv4 callers as
 * ::ffff:a.b.c.d.
 * @param {string | undefined} address
 */
function plainAddress(address) {
  return address?.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/** @param {import('node:http').IncomingHttpHeaders} headers */
function tokenFrom(headers) {
  const vaultToken = headers['x-vault-token'];
  if (typeof vaultToken === 'string' && vaultToken !== '') return vaultToken;
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  return bearer?.[1];
}

/**
 * Reads and checks one request. Throws a typed error (400, 404, 413) for anything malformed.
 * @param {import('node:http').IncomingMessage} req
 * @param {{ maxBodyBytes: number }} options
 * @returns {Promise<ApiRequest>}
 */
export async function readRequest(req, { maxBodyBytes }) {
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
  if (!rawPath.startsWith(API_PREFIX)) throw new NotFound(`unsupported path ${JSON.stringify(rawPath)}`);
  let path;
  try {
    path = decodeURIComponent(rawPath.slice(API_PREFIX.length));
  } catch {
    throw new InvalidRequest('invalid path: malformed percent-encoding');
  }
  // After percent-decoding, so `%2e%2e` and `%2F%2F` are refused like `..` and `//`, before anything is looked up.
  validatePath(path);

  const query = parseQuery(queryStart < 0 ? '' : url.slice(queryStart + 1));
  const method = req.method === 'GET' && isTrue(query.list) ? 'LIST' : req.method;
  if (method === 'LIST') delete query.list;

  const raw = await readBody(req, maxBodyBytes);
  let body;
  if (BODY_METHODS.has(method) && raw.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      // V8's parse errors quote the input, which may be a secret: the message stays generic.
      throw new InvalidRequest('failed to parse JSON input: the body is not valid JSON');
    }
  }

  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name)));
  return {
    method: /** @type {ApiRequest['method']} */ (method),
    path,
    query,
    body,
    headers,
    token: tokenFrom(req.headers),
    remoteAddress: plainAddress(req.socket.remoteAddress),
  };
}

/**
 * Vault's success envelope. Only the HTTP layer knows these members; engines answer `data`, `warnings` and `auth`.
 * @param {string} requestId
 * @param {{ data?: unknown, warnings?: string[], auth?: object }} content
 */
export function envelope(requestId, { data, warnings, auth }) {
  return {
    request_id: requestId,
    lease_id: '',
    renewable: false,
    lease_duration: 0,
    data: data ?? null,
    wrap_info: null,
    warnings: warnings && warnings.length > 0 ? warnings : null,
    auth: auth ?? null,
  };
}

/**
 * An engine's answer on the wire: error bodies as they are, everything else inside the envelope, 204 (or a 404
 * without body, as KV's PATCH of a missing key) empty.
 * @param {string} requestId
 * @param {import('strongroom').EngineResponse} response
 * @returns {ApiResult}
 */
export function engineResult(requestId, response) {
  const { status, body } = response;
  if (body === undefined || status === 204) return { status };
  if ('errors' in body) return { status, body: { errors: body.errors } };
  return { status, body: envelope(requestId, body) };
}

/**
 * The answer to a thrown error: typed errors keep their status and message; anything else is a fault of the server
 * whose text is not shown.
 * @param {unknown} error
 * @returns {ApiResult}
 */
export function errorResult(error) {
  if (isStrongroomError(error)) return { status: error.status, body: { errors: error.message ? [error.message] : [] } };
  return { status: 500, body: { errors: ['internal error'] } };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {ApiResult} result
 * @param {{ close?: boolean }} options  close the connection after answering (shutdown, or an unread body)
 */
export function sendResult(res, result, { close = false } = {}) {
  const headers = { 'Cache-Control': 'no-store', ...(close ? { Connection: 'close' } : {}) };
  if (result.status === 204) {
    res.writeHead(204, headers).end();
    return;
  }
  const text = result.body === undefined ? '' : `${JSON.stringify(result.body)}\n`;
  res.writeHead(result.status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}
