/** The built-in CloudProvider: AWS-compatible Query APIs over signed fetch calls, no AWS SDK. */
import { InvalidRequest } from '../../lib/errors.js';
import type { Clock } from '../../ports/clock.js';
import type {
  AccessKey,
  CallerIdentity,
  CloudClientSettings,
  CloudProvider,
  CloudScope,
  HttpResponseSnapshot,
  IamUser,
  InstanceDescription,
  InstanceProfileDescription,
  PrincipalDescription,
  SignedHttpRequest,
} from '../../ports/cloud.js';
import { systemClock } from '../../lib/clocks.js';
import { parseArn, type ParsedArn } from './arn.js';
import { ecsCredentialsEndpoint } from './credentials/container-credentials.js';
import { CredentialChain, type CredentialEvent, type Environment } from './credentials/credentials.js';
import { describeInstance } from './api/ec2.js';
import { ec2Endpoint, forwardingEndpoint, iamEndpoint, iamRegionOf, partitionOfRegion } from './api/endpoints.js';
import { forwardSignedRequest } from './api/forward.js';
import * as iam from './api/iam.js';
import { defaultImdsEndpoint, ImdsClient } from './api/imds.js';
import { ExpiringCache } from './expiring-cache.js';
import { isThrottlingError, QueryApiClient, type QueryTarget } from './api/query-api.js';
import { defaultRateLimit, RateLimiter, type RateLimit } from './api/rate-limiter.js';
import { retriesFrom } from './api/retry.js';
import { ScopedCredentials } from './credentials/scoped-credentials.js';
import { singleFlight } from './api/single-flight.js';
import { getCallerIdentity } from './api/sts.js';

/** An assumed role is looked up as the role it assumed. */
const principalTypeOf: ReadonlyMap<string, 'user' | 'role'> = new Map([
  ['user', 'user'],
  ['role', 'role'],
  ['assumed-role', 'role'],
]);

/** Options of `AwsCloudProvider`; every one has a default. */
export interface AwsCloudProviderOptions {
  /**
   * Where every variable of the credential chain is read (CLOUD_*, AWS_*, HOME for the shared files); default
   * process.env. Read at each call, so later changes count.
   */
  env?: Environment;
  /** Base URL for AWS_CONTAINER_CREDENTIALS_RELATIVE_URI; default ECS's http://169.254.170.2. */
  containerEndpoint?: string;
  /** Debug hook: which source the base credentials came from, on first use, each refresh and each change of source. */
  onCredentials?: (event: CredentialEvent) => void;
  /** The instance metadata service; default http://169.254.169.254. */
  imdsEndpoint?: string;
  /** Per attempt, for every AWS call; default 10 s. */
  timeoutMs?: number;
  /** Per attempt, for instance metadata (which answers fast or not at all); default 2 s. */
  imdsTimeoutMs?: number;
  /** The first backoff step between retries, doubled each time (with jitter); default 200 ms. */
  retryBaseDelayMs?: number;
  /** Dates the signatures and decides when temporary credentials are due for renewal. */
  clock?: Clock;
  /**
   * Sends the provider's own requests (AWS calls, instance metadata, container credentials); forwarded logins go
   * through node:http instead, to keep the client's Host header. Default `globalThis.fetch`.
   */
  fetch?: typeof fetch;
  /** The provider's own EC2 lookups (per account and region) and IAM lookups (per account and partition); default 10/s, bursts of 50, waits of at most 10 s. */
  rateLimit?: Partial<RateLimit>;
}

/**
 * The built-in CloudProvider, which `AuthMethod` uses unless given another: EC2, IAM and STS Query API calls signed
 * with SigV4 over `fetch`, without the AWS SDK. Its own credentials come from `config/client`, else from the chain
 * read from `env` (CLOUD_* and AWS_* keys, the shared files, web identity, container credentials, IMDSv2).
 */
export class AwsCloudProvider implements CloudProvider {
  private readonly env: Environment;
  private readonly api: QueryApiClient;
  private readonly credentials: ScopedCredentials;
  private readonly timeoutMs: number;
  private readonly retryBaseDelayMs: number;
  private readonly clock: Clock;
  private readonly limiter: RateLimiter;
  /** AWS reads in flight, by what they read (metered). */
  private readonly lookups = new Map<string, Promise<unknown>>();
  private readonly instanceCache = new ExpiringCache<InstanceDescription | undefined>();

  constructor(options: AwsCloudProviderOptions = {}) {
    const clock = options.clock ?? systemClock;
    this.clock = clock;
    this.limiter = new RateLimiter({ ...defaultRateLimit, ...options.rateLimit });
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.env = options.env ?? process.env;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 200;
    this.api = new QueryApiClient({
      fetch: fetchImpl,
      clock,
      timeoutMs: this.timeoutMs,
      retryBaseDelayMs: this.retryBaseDelayMs,
    });
    const imds = new ImdsClient({
      endpoint: options.imdsEndpoint ?? defaultImdsEndpoint,
      timeoutMs: options.imdsTimeoutMs ?? 2_000,
      clock,
      fetch: fetchImpl,
    });
    const chain = new CredentialChain({
      env: this.env,
      api: this.api,
      imds,
      clock,
      fetch: fetchImpl,
      localTimeoutMs: options.imdsTimeoutMs ?? 2_000,
      containerEndpoint: options.containerEndpoint ?? ecsCredentialsEndpoint,
      ...(options.onCredentials && { onCredentials: options.onCredentials }),
    });
    this.credentials = new ScopedCredentials(chain, this.api, clock);
  }

  /**
   * Identical concurrent lookups (same account, region, STS role and external ID, endpoint, instance) share one
   * request; each request waits its turn in the account and region's rate limit; with `instance_cache_seconds`, a
   * running instance's description is reused that long (never a stopped one's, so a stop is seen at once).
   */
  async describeInstance(scope: CloudScope, instanceId: string): Promise<InstanceDescription | undefined> {
    const region = this.regionOf(scope);
    const endpoint = ec2Endpoint(scope.settings, region);
    const { roleArn = '', externalId = '' } = scope.stsRole ?? {};
    const key = JSON.stringify([
      'ec2 DescribeInstances',
      scope.accountId ?? '',
      region,
      roleArn,
      externalId,
      endpoint.url.href,
      instanceId,
    ]);
    const cacheMs = Math.min(60, Math.max(0, scope.settings.instanceCacheSeconds ?? 0)) * 1000;
    const cached = this.instanceCache.get(key);
    if (cacheMs > 0 && cached && cached.until > this.clock.now().getTime()) return cached.description;
    const bucket = `account ${scope.accountId ?? '(own)'} in ${region}`;
    return this.metered(key, bucket, 'ec2 DescribeInstances', async () => {
      const target: QueryTarget = {
        service: 'ec2',
        endpoint,
        credentials: await this.credentials.forScope(scope, region),
        maxRetries: retriesFrom(scope.settings.maxRetries),
      };
      const description = await describeInstance(this.api, target, instanceId);
      if (cacheMs > 0 && description?.state === 'running')
        this.instanceCache.remember(key, description, this.clock.now().getTime() + cacheMs);
      return description;
    });
  }

  async getInstanceProfile(scope: CloudScope, arn: string): Promise<InstanceProfileDescription | undefined> {
    const parsed = parseArn(arn);
    if (parsed.type !== 'instance-profile') throw new InvalidRequest(`"${arn}" is not an instance profile ARN`);
    return this.iamLookup(scope, parsed, 'iam GetInstanceProfile', (target) =>
      iam.getInstanceProfile(this.api, target, parsed.name),
    );
  }

  async getPrincipal(scope: CloudScope, arn: string): Promise<PrincipalDescription | undefined> {
    const parsed = parseArn(arn);
    const type = principalTypeOf.get(parsed.type);
    if (type === undefined) throw new InvalidRequest(`"${arn}" names neither a user nor a role`);
    return this.iamLookup(scope, parsed, `iam Get${type === 'user' ? 'User' : 'Role'}`, (target) =>
      iam.getPrincipal(this.api, target, type, parsed.name),
    );
  }

  /**
   * An IAM lookup by ARN, shared by identical concurrent callers (same entity, credentials scope and endpoint) and
   * metered per account and partition: IAM is one service per partition.
   */
  private async iamLookup<T>(
    scope: CloudScope,
    arn: ParsedArn,
    what: string,
    run: (target: QueryTarget) => Promise<T>,
  ): Promise<T> {
    const target = await this.iamTarget(scope, arn);
    const { roleArn = '', externalId = '' } = scope.stsRole ?? {};
    const key = JSON.stringify([
      what,
      arn.accountId,
      arn.partition,
      roleArn,
      externalId,
      target.endpoint.url.href,
      arn.type,
      arn.name,
    ]);
    return this.metered(key, `account ${arn.accountId} in IAM of ${arn.partition}`, what, () => run(target));
  }

  /**
   * One AWS read: identical concurrent calls (same `key`) share one request, which waits its turn in `bucket`'s rate
   * limit; an AWS throttling answer slows the bucket for everyone behind it.
   */
  private metered<T>(key: string, bucket: string, what: string, run: () => Promise<T>): Promise<T> {
    return singleFlight(this.lookups as Map<string, Promise<T>>, key, async () => {
      await this.limiter.acquire(bucket, what);
      try {
        return await run();
      } catch (error) {
        if (isThrottlingError(error)) this.limiter.throttled(bucket);
        throw error;
      }
    });
  }

  /** A scope with a region here carries the region of the client's own signature (use_sts_region_from_client). */
  async forwardCallerIdentity(scope: CloudScope, request: SignedHttpRequest): Promise<HttpResponseSnapshot> {
    if (scope.region !== undefined) this.checkClientStsRegion(scope.settings, scope.region);
    const target = forwardingEndpoint(scope.settings, scope.region);
    return forwardSignedRequest(target, request, {
      timeoutMs: this.timeoutMs,
      policy: { maxRetries: retriesFrom(scope.settings.maxRetries), baseDelayMs: this.retryBaseDelayMs },
    });
  }

  async getCallerIdentity(scope: CloudScope): Promise<CallerIdentity> {
    return getCallerIdentity(this.api, await this.credentials.stsTarget(scope.settings, this.regionOf(scope)));
  }

  async getCurrentUser(scope: CloudScope): Promise<IamUser> {
    return iam.getCurrentUser(this.api, await this.iamTarget(scope));
  }

  async listAccessKeys(scope: CloudScope, userName: string): Promise<string[]> {
    return iam.listAccessKeys(this.api, await this.iamTarget(scope), userName);
  }

  async createAccessKey(scope: CloudScope, userName: string): Promise<AccessKey> {
    return iam.createAccessKey(this.api, await this.iamTarget(scope), userName);
  }

  async deleteAccessKey(scope: CloudScope, userName: string, accessKeyId: string): Promise<void> {
    await iam.deleteAccessKey(this.api, await this.iamTarget(scope), userName, accessKeyId);
  }

  /**
   * A client may pick its STS region only within the provider's own partition (that of its default region:
   * CLOUD_REGION, AWS_REGION, AWS_DEFAULT_REGION, else us-east-1), or among allowed_sts_regions when that list is set: a login cannot send the server's traffic to
   * a partition the operator never chose.
   */
  private checkClientStsRegion(settings: CloudClientSettings, region: string): void {
    const allowed = settings.allowedStsRegions ?? [];
    if (allowed.length > 0) {
      if (!allowed.includes(region)) {
        throw new InvalidRequest(`STS region "${region}" of the request's signature is not in allowed_sts_regions`);
      }
      return;
    }
    const own = partitionOfRegion(this.regionOf({ settings }));
    if (partitionOfRegion(region) !== own) {
      throw new InvalidRequest(
        `STS region "${region}" of the request's signature is outside partition "${own}"; list it in allowed_sts_regions to accept it`,
      );
    }
  }

  private regionOf(scope: CloudScope): string {
    const { CLOUD_REGION, AWS_REGION, AWS_DEFAULT_REGION } = this.env;
    return scope.region || CLOUD_REGION || AWS_REGION || AWS_DEFAULT_REGION || 'us-east-1';
  }

  /**
   * IAM of the ARN's partition (else the scope's). A lookup by name finds the entity in the caller's account, so the
   * ARN's account is the account the credentials must act for.
   */
  private async iamTarget(scope: CloudScope, arn?: ParsedArn): Promise<QueryTarget> {
    if (arn && scope.accountId !== undefined && scope.accountId !== arn.accountId) {
      throw new InvalidRequest(
        `ARN account "${arn.accountId}" differs from the requested account "${scope.accountId}"`,
      );
    }
    const partition = arn?.partition ?? partitionOfRegion(this.regionOf(scope));
    const accountScope = arn ? { ...scope, accountId: arn.accountId } : scope;
    return {
      service: 'iam',
      endpoint: iamEndpoint(scope.settings, partition),
      credentials: await this.credentials.forScope(accountScope, iamRegionOf(partition)),
      maxRetries: retriesFrom(scope.settings.maxRetries),
    };
  }
}
