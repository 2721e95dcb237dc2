/**
 * The cloud port: everything the auth method asks of the cloud provider. The engine passes the settings it holds
 * (config/client, config/sts) with every call, so a provider keeps no engine state of its own beyond caches, which it
 * keys by everything in the scope (region, account, STS role, external id and the settings themselves).
 */

/** The provider-facing part of `config/client`. Empty strings mean "not configured". */
export interface CloudClientSettings {
  accessKey: string;
  secretKey: string;
  /** Overrides the EC2 endpoint of every region (requests are still signed for the call's region). */
  endpoint: string;
  iamEndpoint: string;
  stsEndpoint: string;
  stsRegion: string;
  /**
   * Regions a client's signed login may choose for STS (use_sts_region_from_client); empty or absent: the regions of
   * the provider's own partition.
   */
  allowedStsRegions?: string[];
  /** -1 means the provider's default. */
  maxRetries: number;
  /** Seconds a running instance's description may be reused (0 or absent: never; the provider caps it at 60). */
  instanceCacheSeconds?: number;
}

/** A per-account role that the provider assumes instead of using its base credentials (config/sts). */
export interface StsRoleBinding {
  roleArn: string;
  externalId?: string;
}

/** Who the provider acts as for one call, and where. */
export interface CloudScope {
  settings: CloudClientSettings;
  /** Region of the resource; when absent the provider uses its own default region (CLOUD_REGION or us-east-1). */
  region?: string;
  /**
   * Account that owns the resource. With `stsRole` the provider assumes that role; without it the provider must
   * verify, on every call, that its own credentials belong to this account, and refuse otherwise.
   */
  accountId?: string;
  stsRole?: StsRoleBinding;
}

export interface InstanceDescription {
  instanceId: string;
  /** EC2 state name: 'pending', 'running', 'stopping', 'stopped', 'shutting-down', 'terminated'. */
  state: string;
  /** The reservation's OwnerId. */
  accountId: string;
  imageId: string;
  vpcId?: string;
  subnetId?: string;
  iamInstanceProfileArn?: string;
  tags: Record<string, string>;
}

export interface InstanceProfileDescription {
  arn: string;
  name: string;
  roleArns: string[];
}

export interface PrincipalDescription {
  arn: string;
  /** The provider's unique id of the user (AIDA...) or role (AROA...). */
  uniqueId: string;
  type: 'user' | 'role';
}

export interface CallerIdentity {
  arn: string;
  userId: string;
  accountId: string;
}

export interface IamUser {
  userName: string;
  arn: string;
  userId: string;
}

export interface AccessKey {
  userName: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A client's signed request, as decoded from the login body. Header names keep the client's spelling. */
export interface SignedHttpRequest {
  method: string;
  url: string;
  headers: Record<string, string[]>;
  body: string;
}

/** What an upstream HTTP endpoint answered, unparsed; header names are lower-case. */
export interface HttpResponseSnapshot {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface CloudProvider {
  /** DescribeInstances for one id; undefined when the instance does not exist. */
  describeInstance(scope: CloudScope, instanceId: string): Promise<InstanceDescription | undefined>;
  /** GetInstanceProfile by ARN; undefined when it does not exist. */
  getInstanceProfile(scope: CloudScope, arn: string): Promise<InstanceProfileDescription | undefined>;
  /** GetUser or GetRole for the principal named by a user or role ARN; undefined when it does not exist. */
  getPrincipal(scope: CloudScope, arn: string): Promise<PrincipalDescription | undefined>;
  /**
   * Sends a client's signed sts:GetCallerIdentity request unchanged (method, body, headers; the client's host travels
   * only as the Host header) to the STS endpoint the settings and region select. Never follows redirects.
   */
  forwardCallerIdentity(scope: CloudScope, request: SignedHttpRequest): Promise<HttpResponseSnapshot>;
  /** The provider's own identity (sts:GetCallerIdentity with its base credentials). */
  getCallerIdentity(scope: CloudScope): Promise<CallerIdentity>;
  /** The IAM user that owns the configured static credentials (GetUser without a name). */
  getCurrentUser(scope: CloudScope): Promise<IamUser>;
  listAccessKeys(scope: CloudScope, userName: string): Promise<string[]>;
  createAccessKey(scope: CloudScope, userName: string): Promise<AccessKey>;
  deleteAccessKey(scope: CloudScope, userName: string, accessKeyId: string): Promise<void>;
}
