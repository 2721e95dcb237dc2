/**
 * A local AWS-compatible endpoint speaking the EC2, IAM and STS Query APIs. Every request must carry a valid SigV4
 * signature from a key the fake issued (session keys need their token and must not have expired); the service and
 * region come from the signature's credential scope, so one URL serves as `endpoint`, `iam_endpoint` and
 * `sts_endpoint` at once, and forwarded logins (whose Host names the client's STS host) verify like real ones.
 *
 *   const aws = await FakeAws.start();            // aws.url is http://127.0.0.1:<port>
 *   const user = aws.createUser({ accountId: '012345678901', userName: 'vault' });
 *   const key = aws.createAccessKey(user.accountId, user.userName);
 *   ... aws.requests (the log), aws.failNext({ kind: 'error', status: 503, code: 'ServiceUnavailable' }) ...
 *   await aws.stop();
 */
import type http from 'node:http';
import { systemClock } from '../../lib/clocks.js';
import type { Clock } from '../../ports/clock.js';
import { actionsOf, unsignedActions } from './actions.js';
import { FakeKms } from './kms.js';
import { listenLocally, type LocalServer } from './listen.js';
import { headerMap, readScope, verifySignature, type ReceivedRequest } from './sigv4.js';
import { callerOf, FakeAwsError, FakeAwsState } from './state.js';
import { errorXml, successXml, type FakeService } from './xml.js';

/** One entry of `FakeAws.requests`: a request as received and how the fake answered it. */
export interface FakeAwsRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  /** The Host header as received. */
  host: string;
  /** All headers, by lower-case name (repeated ones joined with ', '). */
  headers: Record<string, string>;
  /** From the signature's credential scope; absent for an unsigned request. */
  service?: string;
  /** From the signature's credential scope; absent for an unsigned request. */
  region?: string;
  /** The Query API `Action` parameter, from the query or the form body. */
  action?: string;
  /** The signing key, from the signature's credential scope. */
  accessKeyId?: string;
  /** The HTTP status answered (0 while unanswered, and for a `reset` or `hang` fault). */
  status: number;
  /** The AWS error code answered, such as `InvalidClientTokenId`. */
  errorCode?: string;
}

/** What the next request gets instead of a normal answer. */
export type FakeFault =
  | { kind: 'error'; status: number; code: string; message?: string; retryAfter?: string }
  | { kind: 'raw'; status: number; body: string; contentType?: string }
  | { kind: 'reset' }
  | { kind: 'hang' };

/** IAM only accepts signatures scoped to its partition's home region. */
const iamRegions = new Set([
  'us-east-1',
  'us-gov-west-1',
  'cn-north-1',
  'us-iso-east-1',
  'us-isob-east-1',
  'eu-isoe-west-1',
  'us-isof-south-1',
  'eusc-de-east-1',
]);

function isService(name: string): name is FakeService {
  return name === 'ec2' || name === 'iam' || name === 'sts';
}

/**
 * A fake AWS (EC2, IAM, STS, and KMS at `kms`) on a loopback port, checking SigV4 signatures as AWS does. Create one
 * with `FakeAws.start()`, give its `url` as `endpoint`, `iam_endpoint` and `sts_endpoint`, and `stop()` it afterwards.
 */
export class FakeAws extends FakeAwsState {
  /** Every EC2, IAM and STS request received, in arrival order (KMS calls are in `kms.calls`). */
  readonly requests: FakeAwsRequest[] = [];
  private readonly faults: FakeFault[] = [];
  private readonly rateLimits = new Map<string, { perSecond: number; burst: number }>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private server: LocalServer | undefined;
  /** `http://127.0.0.1:<port>`, set by `start()`. */
  url = '';

  /**
   * KMS (Encrypt, Decrypt; keys from `aws.kms.createKey()`), at the same URL, signed for us-east-1 with any key this
   * fake issued.
   */
  readonly kms = new FakeKms({
    credentials: new Proxy(
      {},
      {
        get: (_, accessKeyId) =>
          typeof accessKeyId === 'string' ? this.keys.get(accessKeyId)?.secretAccessKey : undefined,
      },
    ),
    now: () => this.clock.now(),
  });

  /**
   * Listens on 127.0.0.1 at a free port; resolves once it does. `clock` dates session keys and the signature checks
   * (default the system clock).
   */
  static async start(options: { clock?: Clock } = {}): Promise<FakeAws> {
    const aws = new FakeAws(options.clock ?? systemClock);
    aws.server = await listenLocally((request, response) => void aws.serve(request, response));
    aws.url = aws.server.url;
    return aws;
  }

  /**
   * Enforces an AWS-style request rate on one action, per account and region: a bucket of `burst` requests refilled at
   * `perSecond`; a request finding it empty is answered 503 RequestLimitExceeded, as EC2 does.
   */
  limitRate(action: string, limit: { perSecond: number; burst: number }): void {
    this.rateLimits.set(action, limit);
  }

  /** Queues faults for the next requests, one each, in order. */
  failNext(...faults: FakeFault[]): void {
    this.faults.push(...faults);
  }

  /** The logged requests of one action (e.g. 'AssumeRole'). */
  calls(action: string): FakeAwsRequest[] {
    return this.requests.filter((entry) => entry.action === action);
  }

  /** Closes the server, dropping open connections (hanging ones included). */
  async stop(): Promise<void> {
    await this.server?.stop();
  }

  private async serve(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    // KMS speaks the JSON protocol, told apart by its target header; it checks its own signatures.
    if (String(request.headers['x-amz-target'] ?? '').startsWith('TrentService.'))
      return this.kms.handle(request, response);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const received: ReceivedRequest = {
      method: request.method ?? 'GET',
      target: request.url ?? '/',
      rawHeaders: request.rawHeaders,
      body: Buffer.concat(chunks),
    };
    const headers = Object.fromEntries(
      [...headerMap(received.rawHeaders)].map(([name, values]) => [name, values.join(', ')]),
    );
    const entry: FakeAwsRequest = {
      method: received.method,
      path: received.target,
      host: headers.host ?? '',
      headers,
      status: 0,
    };
    this.requests.push(entry);
    const scope = readScope(received);
    const service = scope && isService(scope.service) ? scope.service : undefined;
    const [, search = ''] = received.target.split('?', 2);
    const params = new URLSearchParams(search);
    for (const [name, value] of new URLSearchParams(received.body.toString('utf8'))) params.append(name, value);
    entry.service = scope?.service;
    entry.region = scope?.region;
    entry.action = params.get('Action') ?? undefined;
    entry.accessKeyId = scope?.accessKeyId;

    const fault = this.faults.shift();
    if (fault?.kind === 'reset') return void request.socket.destroy();
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'raw') return this.reply(response, entry, fault.status, fault.body, fault.contentType);
    try {
      if (fault?.kind === 'error') {
        if (fault.retryAfter) response.setHeader('Retry-After', fault.retryAfter);
        throw new FakeAwsError(fault.status, fault.code, fault.message ?? fault.code);
      }
      const action = params.get('Action') ?? '';
      if (!scope && Object.hasOwn(unsignedActions, action)) {
        const result = unsignedActions[action]!({ state: this, region: 'us-east-1', params });
        return this.reply(response, entry, 200, successXml('sts', action, result));
      }
      if (!scope || !service)
        throw new FakeAwsError(403, 'MissingAuthenticationToken', 'Request is missing Authentication Token');
      this.authenticate(received, scope.accessKeyId, scope.sessionToken);
      if (service === 'iam' && !iamRegions.has(scope.region)) {
        throw new FakeAwsError(
          403,
          'SignatureDoesNotMatch',
          `Credential should be scoped to a valid region, not '${scope.region}'.`,
        );
      }
      const handlers = actionsOf[service];
      if (!Object.hasOwn(handlers, action))
        throw new FakeAwsError(400, 'InvalidAction', `Could not find operation ${action}`);
      this.throttle(service, scope.accessKeyId, scope.region, action);
      const caller = this.keys.get(scope.accessKeyId);
      const result = handlers[action]!({ state: this, caller: caller!, region: scope.region, params });
      this.reply(response, entry, 200, successXml(service, action, result));
    } catch (error) {
      if (!(error instanceof FakeAwsError)) throw error;
      entry.errorCode = error.code;
      this.reply(response, entry, error.status, errorXml(service, error));
    }
  }

  private throttle(service: FakeService, accessKeyId: string, region: string, action: string): void {
    const limit = this.rateLimits.get(action);
    const key = this.keys.get(accessKeyId);
    if (!limit || !key) return;
    const bucketKey = `${service}/${callerOf(key.owner).accountId}/${region}/${action}`;
    const now = this.clock.now().getTime();
    const bucket = this.buckets.get(bucketKey) ?? { tokens: limit.burst, at: now };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
    bucket.at = now;
    this.buckets.set(bucketKey, bucket);
    if (bucket.tokens < 1) throw new FakeAwsError(503, 'RequestLimitExceeded', 'Request limit exceeded.');
    bucket.tokens -= 1;
  }

  private authenticate(received: ReceivedRequest, accessKeyId: string, sessionToken: string | undefined): void {
    const key = this.keys.get(accessKeyId);
    if (!key || key.sessionToken !== sessionToken) {
      throw new FakeAwsError(403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
    }
    if (key.expiresAt && key.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new FakeAwsError(403, 'ExpiredToken', 'The security token included in the request is expired');
    }
    const verdict = verifySignature(received, key.secretAccessKey, this.clock.now());
    if (!verdict.ok) throw new FakeAwsError(verdict.status, verdict.code, verdict.message);
  }

  private reply(
    response: http.ServerResponse,
    entry: FakeAwsRequest,
    status: number,
    body: string,
    contentType = 'text/xml',
  ): void {
    entry.status = status;
    response.writeHead(status, { 'Content-Type': contentType }).end(body);
  }
}
