import { InvalidRequest } from '../../../lib/errors.js';
import { decodeBase64 } from '../../../lib/base64.js';
import type { SignedHttpRequest } from '../../../ports/cloud.js';
import { isRegionName } from '../../../lib/region.js';
import { credentialScopeRegion } from './authorization.js';
import { decodeRequestHeaders, type RequestHeaders } from './headers.js';
import { checkServerIdHeader } from './server-id.js';

/**
 * Decoding and hardening of the iam login fields (as in Vault). Whatever passes
 * here can only ever be an sts:GetCallerIdentity POST: the client cannot make STS do or return anything else.
 */

/** The login body's iam fields, as received (the route need not have converted them). */
export interface IamLoginFields {
  iam_http_request_method?: unknown;
  iam_request_url?: unknown;
  iam_request_body?: unknown;
  iam_request_headers?: unknown;
}

/** The `config/client` settings that govern iam logins (applied whether or not config/client exists). */
export interface IamRequestPolicy {
  /** iam_server_id_header_value: '' requires no server-ID header. */
  serverIdHeaderValue: string;
  /** allowed_sts_header_values: X-Amz-* headers allowed beyond the defaults (case-insensitive). */
  allowedStsHeaders: readonly string[];
  /** use_sts_region_from_client: the STS region comes from the client's credential scope. */
  useStsRegionFromClient: boolean;
  /** Accept Vault's X-Vault-AWS-IAM-Server-ID header name too. Default true. */
  acceptVaultServerIdHeader?: boolean;
}

export interface DecodedIamRequest {
  /** Ready for CloudProvider.forwardCallerIdentity; the URL is `<scheme>://<client host>/`, whose host travels only as the Host header. */
  request: SignedHttpRequest;
  /** With useStsRegionFromClient: the validated region of the client's credential scope, to choose the STS endpoint. */
  region?: string;
}

const MAX_FIELD_LENGTH = 8 * 1024;
const DEFAULT_ALLOWED_AMZ_HEADERS = [
  'X-Amz-Algorithm',
  'X-Amz-Content-Sha256',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Security-Token',
  'X-Amz-Signature',
  'X-Amz-SignedHeaders',
  'X-Amz-User-Agent',
];
// Connection-level headers describe the client's hop, not the signed request; forwarded, they could desynchronise
// the request stream to STS.
const HOP_BY_HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
// The client's URL as the signer saw it: scheme, authority and an empty or root path; a bare trailing '?' is fine.
const ROOT_URL = /^https?:\/\/[^/?#\\\s@]+\/?\??$/i;
const FORM_BODY = /^[A-Za-z0-9._~%+=&-]+$/;
const API_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Validates the iam login fields and builds the request to forward. Every failure is InvalidRequest (400) with the
 * message Vault gives, adapted to our header name.
 */
export function decodeIamRequest(fields: IamLoginFields, policy: IamRequestPolicy): DecodedIamRequest {
  const method = text(fields.iam_http_request_method, 'iam_http_request_method');
  if (method === '') throw new InvalidRequest('missing iam_http_request_method');
  if (method !== 'POST')
    throw new InvalidRequest("invalid iam_http_request_method; currently only 'POST' is supported");

  const url = decodeUrl(decodedField(fields.iam_request_url, 'iam_request_url', 'missing iam_request_url'));
  const body = decodedField(
    fields.iam_request_body,
    'iam_request_body',
    'missing iam_request_body which is required for POST requests',
  );
  checkBody(body);

  const headers = decodeRequestHeaders(fields.iam_request_headers);
  if (policy.serverIdHeaderValue !== '') {
    checkServerIdHeader(headers, policy.serverIdHeaderValue, policy.acceptVaultServerIdHeader ?? true);
  }
  checkHeaderNames(headers, policy.allowedStsHeaders, body);
  // The provider sets Host from the URL; a Host of the client's own would be ignored anyway (as in Vault).
  headers.delete('Host');

  const decoded: DecodedIamRequest = { request: { method, url, headers: headers.toRecord(), body } };
  if (policy.useStsRegionFromClient) decoded.region = clientRegion(headers);
  return decoded;
}

function text(value: unknown, name: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new InvalidRequest(`${name} must be a string`);
  return value;
}

function decodedField(value: unknown, name: string, missing: string): string {
  const encoded = text(value, name);
  if (encoded === '') throw new InvalidRequest(missing);
  const bytes = encoded.length <= MAX_FIELD_LENGTH ? decodeBase64(encoded) : undefined;
  if (!bytes) throw new InvalidRequest(`failed to base64 decode ${name}`);
  return bytes.toString('utf8');
}

function decodeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidRequest('error parsing iam_request_url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InvalidRequest('error parsing iam_request_url: the scheme must be https or http');
  if (url.search !== '')
    throw new InvalidRequest('invalid request: iam_request_url must not have a query for POST requests');
  if (!ROOT_URL.test(raw)) {
    throw new InvalidRequest(
      'invalid request: iam_request_url must be the root URL of the STS host, like https://sts.amazonaws.com/',
    );
  }
  return `${url.protocol}//${url.host}/`;
}

/** Only `Action=GetCallerIdentity` and `Version=<date>`, each exactly once, after form decoding (as in Vault). */
function checkBody(body: string): void {
  const invalid = (detail: string): InvalidRequest => new InvalidRequest(`iam request body is invalid: ${detail}`);
  if (!FORM_BODY.test(body)) throw invalid('it is not a form-encoded parameter list');
  const seen = new Map<string, string>();
  for (const pair of body.split('&')) {
    const equals = pair.indexOf('=');
    if (equals < 0) throw invalid('every parameter needs a value');
    const name = formComponent(pair.slice(0, equals), invalid);
    const value = formComponent(pair.slice(equals + 1), invalid);
    if (name !== 'Action' && name !== 'Version') throw invalid(`unexpected parameter ${JSON.stringify(name)}`);
    if (seen.has(name)) throw invalid(`parameter ${name} is repeated`);
    seen.set(name, value);
  }
  if (seen.get('Action') !== 'GetCallerIdentity') throw invalid('the Action must be GetCallerIdentity');
  if (!API_VERSION.test(seen.get('Version') ?? '')) throw invalid('a Version like 2011-06-15 is required');
}

function formComponent(encoded: string, invalid: (detail: string) => InvalidRequest): string {
  try {
    return decodeURIComponent(encoded.replace(/\+/g, ' '));
  } catch {
    throw invalid('bad percent-encoding');
  }
}

function checkHeaderNames(headers: RequestHeaders, extraAllowed: readonly string[], body: string): void {
  const allowed = new Set([...DEFAULT_ALLOWED_AMZ_HEADERS, ...extraAllowed].map((name) => name.trim().toLowerCase()));
  for (const name of headers.names()) {
    const lower = name.toLowerCase();
    if ((lower.startsWith('x-amz-') && !allowed.has(lower)) || HOP_BY_HOP_HEADERS.has(lower)) {
      throw new InvalidRequest(`invalid request header: ${name}`);
    }
  }
  const contentLength = headers.get('Content-Length');
  if (contentLength && (contentLength.length !== 1 || contentLength[0] !== String(Buffer.byteLength(body)))) {
    throw new InvalidRequest('invalid request header: Content-Length does not match iam_request_body');
  }
}

function clientRegion(headers: RequestHeaders): string {
  const region = credentialScopeRegion(headers);
  if (region === undefined) throw new InvalidRequest('region missing from Authorization header');
  if (!isRegionName(region))
    throw new InvalidRequest(`unable to get regional STS endpoint for region: ${region.slice(0, 64)}`);
  return region;
}
