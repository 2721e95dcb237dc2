/**
 * Client-side helpers for Node services that log in to a strongroom (or Vault) cloud auth method: the iam login body
 * (a signed sts:GetCallerIdentity, encoded as Vault clients encode it) and the ec2 rsa2048 PKCS#7 from IMDSv2.
 */
import type { Clock } from '../../ports/clock.js';
import { systemClock } from '../../lib/clocks.js';
import { regionalStsUrl } from './api/endpoints.js';
import { defaultImdsEndpoint, ImdsClient } from './api/imds.js';
import { signRequest } from './api/signing.js';

const serverIdHeader = 'X-Service-Cloud-IAM-Server-ID';
const callerIdentityBody = 'Action=GetCallerIdentity&Version=2011-06-15';

/** The AWS credentials an iam login is signed with: the identity that logs in. */
export interface LoginCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** For temporary credentials (instance roles, assumed roles). */
  sessionToken?: string;
}

/** Options of `buildIamLoginBody`. */
export interface IamLoginOptions {
  credentials: LoginCredentials;
  /** The region the request is signed for; default us-east-1. */
  region?: string;
  /** The STS URL to sign for; default the regional endpoint of `region` (https://sts.<region>.amazonaws.com/). */
  stsUrl?: string;
  /** The server's `iam_server_id_header_value`; when given, sent and signed as X-Service-Cloud-IAM-Server-ID. */
  serverId?: string;
  /** The role to log in against; omitted, the server uses the principal's friendly name. */
  role?: string;
  /** Dates the signature, which STS accepts within 15 minutes of its own time; default the system clock. */
  clock?: Clock;
}

/** The fields of an iam `POST login` body. */
export interface IamLoginBody {
  iam_http_request_method: 'POST';
  /** base64 of the URL. */
  iam_request_url: string;
  /** base64 of the form body. */
  iam_request_body: string;
  /** base64 of the JSON map of header name to values. */
  iam_request_headers: string;
  role?: string;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Signs a GetCallerIdentity request with `credentials` and packs it into an iam login body. */
export function buildIamLoginBody(options: IamLoginOptions): IamLoginBody {
  const region = options.region ?? 'us-east-1';
  const url = options.stsUrl ? new URL(options.stsUrl) : regionalStsUrl(region);
  const signed = signRequest(
    {
      url,
      method: 'POST',
      service: 'sts',
      region,
      body: callerIdentityBody,
      headers: options.serverId === undefined ? {} : { [serverIdHeader]: options.serverId },
      now: (options.clock ?? systemClock).now(),
    },
    options.credentials,
  );
  // Host travels in the URL and Content-Length is the body's length; clients of Vault leave both out of the map too.
  const headers = Object.fromEntries(
    Object.entries(signed)
      .filter(([name]) => !['host', 'content-length'].includes(name.toLowerCase()))
      .map(([name, value]) => [name, [value]]),
  );
  return {
    iam_http_request_method: 'POST',
    iam_request_url: base64(url.href),
    iam_request_body: base64(callerIdentityBody),
    iam_request_headers: base64(JSON.stringify(headers)),
    ...(options.role !== undefined && { role: options.role }),
  };
}

/** Options of `fetchEc2Pkcs7`: where the instance metadata service is and how it is reached. */
export interface Ec2IdentityOptions {
  /** Default http://169.254.169.254. */
  imdsEndpoint?: string;
  /** Per request; default 2 s. */
  timeoutMs?: number;
  /** Sends the metadata requests; default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** The instance's rsa2048 PKCS#7 identity signature from IMDSv2, newlines removed, ready for the `pkcs7` field. */
export async function fetchEc2Pkcs7(options: Ec2IdentityOptions = {}): Promise<string> {
  const imds = new ImdsClient({
    endpoint: options.imdsEndpoint ?? defaultImdsEndpoint,
    timeoutMs: options.timeoutMs ?? 2_000,
    clock: systemClock,
    fetch: options.fetch ?? globalThis.fetch,
  });
  return (await imds.get('/latest/dynamic/instance-identity/rsa2048')).replace(/[\r\n]/g, '');
}

/** Options of `buildEc2LoginBody`: those of `fetchEc2Pkcs7`, and the login's own fields. */
export interface Ec2LoginOptions extends Ec2IdentityOptions {
  /** The role to log in against; omitted, the server uses the role named after the instance's AMI id. */
  role?: string;
  /** The nonce of earlier logins; omitted on the first login, the server generates one and returns it. */
  nonce?: string;
}

/** An ec2 `POST login` body from the instance's rsa2048 PKCS#7. */
export async function buildEc2LoginBody(
  options: Ec2LoginOptions = {},
): Promise<{ pkcs7: string; role?: string; nonce?: string }> {
  return {
    pkcs7: await fetchEc2Pkcs7(options),
    ...(options.role !== undefined && { role: options.role }),
    ...(options.nonce !== undefined && { nonce: options.nonce }),
  };
}
