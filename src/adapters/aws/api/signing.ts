/** SigV4 signing of requests the library sends itself (Query API calls, client-side login helpers), through aws4. */
import aws4 from 'aws4';

/** AWS credentials to sign requests with: a long-term key pair, or temporary credentials with their session token. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** When temporary credentials stop working; absent for long-term keys. */
  expiresAt?: Date;
}

export interface RequestToSign {
  url: URL;
  method: 'POST';
  service: string;
  region: string;
  body: string;
  /** Extra headers to sign (e.g. the server-ID header of a login). */
  headers?: Record<string, string>;
  now: Date;
}

export const formContentType = 'application/x-www-form-urlencoded; charset=utf-8';

/** `20260101T000000Z`: the X-Amz-Date form of a time. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]|\.\d{3}/g, '');
}

/**
 * Returns every header of the signed request, Host and Content-Length included (both are covered by the signature).
 * The date comes from the caller's clock rather than aws4's own `new Date()`.
 */
export function signRequest(request: RequestToSign, credentials: AwsCredentials): Record<string, string> {
  const signed = aws4.sign(
    {
      host: request.url.host,
      path: `${request.url.pathname}${request.url.search}`,
      method: request.method,
      service: request.service,
      region: request.region,
      body: request.body,
      headers: { ...request.headers, 'Content-Type': formContentType, 'X-Amz-Date': amzDate(request.now) },
    },
    {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    },
  );
  const entries = Object.entries(signed.headers ?? {}).filter(([, value]) => value !== undefined);
  return Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}
