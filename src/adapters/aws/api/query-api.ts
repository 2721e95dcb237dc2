/**
 * One signed AWS Query API call: form-encoded POST, SigV4 through aws4, XML answer, AWS error XML turned into typed
 * errors, retries with backoff on throttling, 5xx and transport failures, and a timeout per attempt.
 */
import { CloudUnavailable } from '../../../lib/errors.js';
import type { Clock } from '../../../ports/clock.js';
import type { Endpoint } from './endpoints.js';
import { describeTransportError, isRetryableStatus, withRetries, type Outcome } from './retry.js';
import { formContentType, signRequest, type AwsCredentials } from './signing.js';
import { child, parseXml, text, type XmlNode } from './xml.js';

export type AwsService = 'ec2' | 'iam' | 'sts';

const apiVersionOf: Readonly<Record<AwsService, string>> = {
  ec2: '2016-11-15',
  iam: '2010-05-08',
  sts: '2011-06-15',
};

/** Error codes AWS uses for throttling, sometimes with a 400 status, which the status alone would not reveal. */
const throttlingCodes = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
]);

export const isThrottlingError = (error: unknown): boolean =>
  error instanceof AwsApiError && (throttlingCodes.has(error.awsCode) || error.httpStatus === 429);

/** An error answer from AWS; a CloudUnavailable (502) unless the caller maps its code (e.g. "not found"). */
export class AwsApiError extends CloudUnavailable {
  constructor(
    readonly awsCode: string,
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
  }
}

export interface QueryTarget {
  service: AwsService;
  endpoint: Endpoint;
  /** Absent for the few actions AWS takes unsigned (AssumeRoleWithWebIdentity: the token is the proof). */
  credentials: AwsCredentials | undefined;
  /** Retries after the first attempt (already resolved from max_retries). */
  maxRetries: number;
}

export interface QueryTransport {
  fetch: typeof fetch;
  clock: Clock;
  timeoutMs: number;
  retryBaseDelayMs: number;
}

/** RFC 3986 encoding, as SigV4 canonicalisation expects it. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function encodeForm(params: ReadonlyArray<readonly [string, string]>): string {
  return params.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
}

function firstOf(node: XmlNode): XmlNode {
  return Array.isArray(node) ? node[0] : node;
}

/** IAM and STS answer `<ErrorResponse><Error>`, EC2 answers `<Response><Errors><Error>`. */
function parseError(label: string, status: number, body: string): AwsApiError {
  const document = parseXml(body);
  const error = firstOf(child(document, 'ErrorResponse', 'Error') ?? child(document, 'Response', 'Errors', 'Error'));
  const code = text(error, 'Code');
  if (code === undefined) return new AwsApiError(`HTTP${status}`, status, `${label} failed with HTTP ${status}`);
  const message = text(error, 'Message');
  return new AwsApiError(code, status, `${label} failed: ${code}${message ? `: ${message}` : ''} (HTTP ${status})`);
}

export class QueryApiClient {
  constructor(private readonly transport: QueryTransport) {}

  /** Calls `action` and returns the `<ActionResponse>` element. */
  async call(target: QueryTarget, action: string, params: Record<string, string> = {}): Promise<XmlNode> {
    const body = encodeForm([['Action', action], ['Version', apiVersionOf[target.service]], ...Object.entries(params)]);
    const policy = { maxRetries: target.maxRetries, baseDelayMs: this.transport.retryBaseDelayMs };
    return withRetries(policy, () => this.attempt(target, action, body));
  }

  private async attempt(target: QueryTarget, action: string, body: string): Promise<Outcome<XmlNode>> {
    const label = `${target.service} ${action}`;
    const { url, region } = target.endpoint;
    const signed = target.credentials
      ? signRequest(
          { url, method: 'POST', service: target.service, region, body, now: this.transport.clock.now() },
          target.credentials,
        )
      : { 'Content-Type': formContentType };
    // fetch derives Host from the URL, which is exactly the host that was signed.
    const headers = Object.entries(signed).filter(([name]) => name.toLowerCase() !== 'host');
    let status: number;
    let answer: string;
    let retryAfter: string | null;
    try {
      const response = await this.transport.fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.transport.timeoutMs),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      answer = await response.text();
    } catch (error) {
      const reason = describeTransportError(error);
      return { retryable: true, error: new CloudUnavailable(`${label} at ${url.origin}: ${reason}`) };
    }
    if (status >= 200 && status < 300) {
      const root = child(parseXml(answer), `${action}Response`);
      if (root !== undefined) return { retryable: false, value: root };
      return { retryable: false, error: new CloudUnavailable(`${label}: unparsable answer (HTTP ${status})`) };
    }
    const error = parseError(label, status, answer);
    const retryable = isRetryableStatus(status) || throttlingCodes.has(error.awsCode);
    return { error, retryAfter, retryable };
  }
}

/** Runs a lookup and turns the given "does not exist" codes into undefined. */
export async function unlessNotFound<T>(
  notFoundCodes: readonly string[],
  lookup: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof AwsApiError && notFoundCodes.includes(error.awsCode)) return undefined;
    throw error;
  }
}
