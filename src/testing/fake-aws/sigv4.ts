/**
 * An independent SigV4 verifier for the fake AWS endpoint: it rebuilds the canonical request from what arrived on the
 * wire (raw headers, path, query, body), as AWS does, so that a signing mistake in the code under test shows up.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A request as it arrived on the wire, which `verifySignature` and `readScope` read. */
export interface ReceivedRequest {
  method: string;
  /** Path and query as received. */
  target: string;
  /** Node's rawHeaders: name, value, name, value... */
  rawHeaders: string[];
  body: Buffer;
}

/** What the Authorization header of a SigV4-signed request declares, with its date and session token headers. */
export interface SignatureScope {
  accessKeyId: string;
  /** The scope's date, `YYYYMMDD`. */
  date: string;
  region: string;
  service: string;
  /** The signed header names, as the Authorization header lists them. */
  signedHeaders: string[];
  /** The X-Amz-Date header, `YYYYMMDDTHHMMSSZ`; empty when absent. */
  amzDate: string;
  /** The X-Amz-Security-Token header, when sent. */
  sessionToken: string | undefined;
}

/** What `verifySignature` decides: valid, or the AWS error (status, code, message) to answer. */
export type Verdict = { ok: true } | { ok: false; code: string; message: string; status: number };

const authorizationPattern =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** Header values by lower-case name, in arrival order. */
export function headerMap(rawHeaders: string[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    map.set(name, [...(map.get(name) ?? []), rawHeaders[i + 1] as string]);
  }
  return map;
}

/** Reads the credential scope of the Authorization header; undefined when the request is not SigV4-signed. */
export function readScope(request: ReceivedRequest): (SignatureScope & { signature: string }) | undefined {
  const headers = headerMap(request.rawHeaders);
  const match = authorizationPattern.exec((headers.get('authorization') ?? []).join(','));
  if (!match) return undefined;
  const [, accessKeyId, date, region, service, signed, signature] = match as unknown as string[];
  return {
    accessKeyId: accessKeyId as string,
    date: date as string,
    region: region as string,
    service: service as string,
    signedHeaders: (signed as string).split(';'),
    signature: signature as string,
    amzDate: headers.get('x-amz-date')?.[0] ?? '',
    sessionToken: headers.get('x-amz-security-token')?.[0],
  };
}

const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(search: string): string {
  const pairs = [...new URLSearchParams(search)].map(([key, value]) => `${encode(key)}=${encode(value)}`);
  return pairs.sort().join('&');
}

function canonicalPath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  return (
    collapsed
      .split('/')
      .map((piece) => encode(decodeURIComponent(piece)))
      .join('/') || '/'
  );
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** Checks the signature of `request` with `secret`; the caller has already matched the access key id. */
export function verifySignature(request: ReceivedRequest, secret: string, now: Date): Verdict {
  const scope = readScope(request);
  if (!scope)
    return { ok: false, status: 403, code: 'IncompleteSignature', message: 'Authorization header is malformed' };
  const headers = headerMap(request.rawHeaders);
  for (const required of ['host', 'x-amz-date']) {
    if (!scope.signedHeaders.includes(required)) {
      return { ok: false, status: 403, code: 'SignatureDoesNotMatch', message: `${required} must be signed` };
    }
  }
  if (scope.sessionToken !== undefined && !scope.signedHeaders.includes('x-amz-security-token')) {
    return { ok: false, status: 403, code: 'SignatureDoesNotMatch', message: 'x-amz-security-token must be signed' };
  }
  const signedAt = Date.parse(scope.amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!Number.isFinite(signedAt) || !scope.amzDate.startsWith(scope.date)) {
    return { ok: false, status: 403, code: 'SignatureDoesNotMatch', message: 'X-Amz-Date is malformed' };
  }
  if (Math.abs(now.getTime() - signedAt) > 15 * 60_000) {
    return { ok: false, status: 403, code: 'SignatureDoesNotMatch', message: 'Signature expired' };
  }
  const [path = '/', search = ''] = request.target.split('?', 2);
  const canonicalHeaders = scope.signedHeaders
    .map((name) => `${name}:${(headers.get(name) ?? []).map((v) => v.trim().replace(/\s+/g, ' ')).join(',')}\n`)
    .join('');
  const canonicalRequest = [
    request.method,
    canonicalPath(path),
    canonicalQuery(search),
    canonicalHeaders,
    scope.signedHeaders.join(';'),
    sha256(request.body),
  ].join('\n');
  const credentialScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', scope.amzDate, credentialScope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, scope.date), scope.region), scope.service), 'aws4_request');
  const expected = hmac(key, stringToSign);
  const presented = Buffer.from(scope.signature, 'hex');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    return {
      ok: false,
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  }
  return { ok: true };
}
