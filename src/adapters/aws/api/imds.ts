/**
 * IMDSv2: a session token from `PUT /latest/api/token`, then GETs that present it. Used for the provider's instance
 * role credentials and by the client-side ec2 login helper.
 */
import { CloudUnavailable } from '../../../lib/errors.js';
import type { Clock } from '../../../ports/clock.js';
import { describeTransportError } from './retry.js';

export const defaultImdsEndpoint = 'http://169.254.169.254';
const tokenTtlSeconds = 21_600;
/** Renew the session token a minute before IMDS would reject it. */
const tokenMarginMs = 60_000;

export interface ImdsOptions {
  endpoint: string;
  timeoutMs: number;
  clock: Clock;
  fetch: typeof fetch;
}

export class ImdsClient {
  private token: { value: string; renewAt: number } | undefined;

  constructor(private readonly options: ImdsOptions) {}

  /** GETs a metadata path (e.g. `/latest/meta-data/iam/security-credentials/`) and returns its text. */
  async get(path: string): Promise<string> {
    const first = await this.request(path, await this.sessionToken());
    if (first.status !== 401) return this.accept(path, first);
    // The token was revoked or the clock disagrees with IMDS: start a new session once.
    this.token = undefined;
    return this.accept(path, await this.request(path, await this.sessionToken()));
  }

  private accept(path: string, answer: { status: number; body: string }): string {
    if (answer.status !== 200) throw new CloudUnavailable(`instance metadata ${path} answered HTTP ${answer.status}`);
    return answer.body;
  }

  private async sessionToken(): Promise<string> {
    const now = this.options.clock.now().getTime();
    if (this.token && now < this.token.renewAt) return this.token.value;
    const answer = await this.send('/latest/api/token', 'PUT', {
      'X-aws-ec2-metadata-token-ttl-seconds': String(tokenTtlSeconds),
    });
    if (answer.status !== 200 || answer.body === '') {
      throw new CloudUnavailable(`instance metadata refused a session token (HTTP ${answer.status})`);
    }
    this.token = { value: answer.body, renewAt: now + tokenTtlSeconds * 1000 - tokenMarginMs };
    return answer.body;
  }

  private request(path: string, token: string): Promise<{ status: number; body: string }> {
    return this.send(path, 'GET', { 'X-aws-ec2-metadata-token': token });
  }

  private async send(path: string, method: string, headers: Record<string, string>) {
    const url = new URL(path, this.options.endpoint);
    try {
      const response = await this.options.fetch(url, {
        method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      return { status: response.status, body: await response.text() };
    } catch (error) {
      throw new CloudUnavailable(`instance metadata at ${url.origin} unavailable: ${describeTransportError(error)}`);
    }
  }
}
