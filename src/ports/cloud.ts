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

/** An EC2 instance as DescribeInstances reports it: what an ec2 login's `bound_*` constraints are checked against. */
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

/** An IAM instance profile as GetInstanceProfile reports it; an ec2 login needs it to hold exactly one role. */
export interface InstanceProfileDescription {
  arn: string;
  name: string;
  /** The ARNs of the roles the profile holds. */
  roleArns: string[];
}

/**
 * An IAM user or role as GetUser or GetRole reports it. With `resolve_aws_unique_ids`, an iam role's bound principal
 * ARNs are stored as these unique ids, so a principal deleted and re-created under the same ARN no longer matches.
 */
export interface PrincipalDescription {
  arn: string;
  /** The provider's unique id of the user (AIDA...) or role (AROA...). */
  uniqueId: string;
  type: 'user' | 'role';
}

/** Who a set of credentials belongs to, as sts:GetCallerIdentity answers. */
export interface CallerIdentity {
  arn: string;
  /** The unique id of the user, or `<role id>:<session name>` for an assumed role. */
  userId: string;
  accountId: string;
}

/** An IAM user as GetUser reports it: the owner of the static credentials that `config/rotate-root` replaces. */
export interface IamUser {
  userName: string;
  arn: string;
  userId: string;
}

/** A new IAM access key as CreateAccessKey answers it: the only time its secret can be read. */
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

/**
 * The port itself: implement it to back the auth method with another cloud or SDK (`AuthMethod` defaults to
 * `AwsCloudProvider` from `strongroom/aws`). A call that fails should reject with `CloudUnavailable` (502) or another
 * typed error, whose status is kept; any other error is answered 502 without its message.
 */
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
  /** The access key ids of an IAM user (ListAccessKeys, every page). */
  listAccessKeys(scope: CloudScope, userName: string): Promise<string[]>;
  /** A new access key for an IAM user (CreateAccessKey); AWS refuses a third key with `LimitExceeded`. */
  createAccessKey(scope: CloudScope, userName: string): Promise<AccessKey>;
  /** Deletes one access key of an IAM user (DeleteAccessKey); `config/rotate-root` deletes the old key with it. */
  deleteAccessKey(scope: CloudScope, userName: string, accessKeyId: string): Promise<void>;
}
