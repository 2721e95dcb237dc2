/** The built-in CloudProvider: AWS-compatible Query APIs over signed fetch calls, no AWS SDK. */
import { InvalidRequest } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import type {
  AccessKey,
  CallerIdentity,
  CloudProvider,
  CloudScope,
  HttpResponseSnapshot,
  IamUser,
  InstanceDescription,
  InstanceProfileDescription,
  PrincipalDescription,
  SignedHttpRequest,
} from '../../ports/cloud.js';
import { systemClock } from '../clocks.js';
import { parseArn, type ParsedArn } from './arn.js';
import { ecsCredentialsEndpoint } from './container-credentials.js';
import { CredentialChain, type CredentialEvent, type Environment } from './credentials.js';
import { describeInstance } from './ec2.js';
import { ec2Endpoint, forwardingEndpoint, iamEndpoint, iamRegionOf, partitionOfRegion } from './endpoints.js';
import { forwardSignedRequest } from './forward.js';
import * as iam from './iam.js';
import { defaultImdsEndpoint, ImdsClient } from './imds.js';
import { QueryApiClient, type QueryTarget } from './query-api.js';
import { retriesFrom } from './retry.js';
import { ScopedCredentials } from './scoped-credentials.js';
import { getCallerIdentity } from './sts.js';

/** An assumed role is looked up as the role it assumed. */
const principalTypeOf: ReadonlyMap<string, 'user' | 'role'> = new Map([
  ['user', 'user'],
  ['role', 'role'],
  ['assumed-role', 'role'],
]);

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
  fetch?: typeof fetch;
}

export class AwsCloudProvider implements CloudProvider {
  private readonly env: Environment;
  private readonly api: QueryApiClient;
  private readonly credentials: ScopedCredentials;
  private readonly timeoutMs: number;
  private readonly retryBaseDelayMs: number;

  constructor(options: AwsCloudProviderOptions = {}) {
    const clock = options.clock ?? systemClock;
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

  async describeInstance(scope: CloudScope, instanceId: string): Promise<InstanceDescription | undefined> {
    const region = this.regionOf(scope);
    const target: QueryTarget = {
      service: 'ec2',
      endpoint: ec2Endpoint(scope.settings, region),
      credentials: await this.credentials.forScope(scope, region),
      maxRetries: retriesFrom(scope.settings.maxRetries),
    };
    return describeInstance(this.api, target, instanceId);
  }

  async getInstanceProfile(scope: CloudScope, arn: string): Promise<InstanceProfileDescription | undefined> {
    const parsed = parseArn(arn);
    if (parsed.type !== 'instance-profile') throw new InvalidRequest(`"${arn}" is not an instance profile ARN`);
    return iam.getInstanceProfile(this.api, await this.iamTarget(scope, parsed), parsed.name);
  }

  async getPrincipal(scope: CloudScope, arn: string): Promise<PrincipalDescription | undefined> {
    const parsed = parseArn(arn);
    const type = principalTypeOf.get(parsed.type);
    if (type === undefined) throw new InvalidRequest(`"${arn}" names neither a user nor a role`);
    return iam.getPrincipal(this.api, await this.iamTarget(scope, parsed), type, parsed.name);
  }

  forwardCallerIdentity(scope: CloudScope, request: SignedHttpRequest): Promise<HttpResponseSnapshot> {
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
      credentials: await this.credentials.forScope(accountScope, iamRegionOf[partition]),
      maxRetries: retriesFrom(scope.settings.maxRetries),
    };
  }
}
