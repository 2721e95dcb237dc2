import { AuthenticationRefused, CloudUnavailable } from '../../src/lib/errors.js';
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
} from '../../src/ports/cloud.js';

/**
 * An in-memory CloudProvider for tests: instances (with region and tags), instance profiles, IAM users and roles with
 * unique ids, access keys with IAM's two-key limit, STS roles to assume, the provider's own identity, and a
 * configurable answer to forwarded GetCallerIdentity requests. Every call is logged, and any call can be made to fail.
 *
 * Like the real provider, a scope naming an account without an STS role is served only if the provider's own
 * credentials belong to that account (decision 15); with an STS role, the role's account is the one acted on.
 */

export type CloudMethod = keyof CloudProvider;

export interface CloudCall {
  method: CloudMethod;
  scope: CloudScope;
  args: unknown[];
}

interface StoredInstance {
  region: string;
  description: InstanceDescription;
}

interface StoredUser extends IamUser {
  accountId: string;
  keys: AccessKey[];
}

interface Failure {
  error: Error;
  remaining: number;
}

export const FAKE_ACCOUNT = '123456789012';

function accountOfArn(arn: string): string {
  return arn.split(':')[4] ?? '';
}

/** The type and friendly name an IAM ARN names (an assumed role names its role); the path is ignored, as IAM does. */
function principalOfArn(arn: string): { type: string; name: string } {
  const resource = arn.split(':').slice(5).join(':');
  const items = resource.split('/');
  const type = items[0] ?? '';
  return type === 'assumed-role'
    ? { type: 'role', name: items[1] ?? '' }
    : { type, name: items[items.length - 1] ?? '' };
}

/** A GetCallerIdentity answer as STS gives it. */
export function callerIdentityResponse(identity: CallerIdentity): HttpResponseSnapshot {
  return {
    status: 200,
    headers: { 'content-type': 'text/xml' },
    body:
      '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">' +
      `<GetCallerIdentityResult><Arn>${identity.arn}</Arn><UserId>${identity.userId}</UserId>` +
      `<Account>${identity.accountId}</Account></GetCallerIdentityResult>` +
      '<ResponseMetadata><RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId></ResponseMetadata>' +
      '</GetCallerIdentityResponse>',
  };
}

export class FakeCloud implements CloudProvider {
  readonly calls: CloudCall[] = [];
  /** The provider's own credentials' account (what getCallerIdentity answers for the base credentials). */
  ownAccountId = FAKE_ACCOUNT;
  /** What forwardCallerIdentity answers; by default a successful GetCallerIdentity of `stsCaller`. */
  forwardAnswer: (
    scope: CloudScope,
    request: SignedHttpRequest,
  ) => HttpResponseSnapshot | Promise<HttpResponseSnapshot> = () => callerIdentityResponse(this.stsCaller);
  stsCaller: CallerIdentity = {
    arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/client`,
    userId: 'AIDACLIENTCLIENTCLIENT',
    accountId: FAKE_ACCOUNT,
  };

  private readonly instances = new Map<string, StoredInstance>();
  private readonly profiles = new Map<string, InstanceProfileDescription>();
  private readonly principals = new Map<string, PrincipalDescription>();
  private readonly users = new Map<string, StoredUser>();
  private readonly stsRoles = new Map<string, string>();
  private readonly failures = new Map<CloudMethod, Failure>();
  private nextId = 1;

  // ---- setup -------------------------------------------------------------------------------------------------------

  addInstance(
    instance: Partial<InstanceDescription> & { instanceId: string },
    options: { region?: string } = {},
  ): InstanceDescription {
    const description: InstanceDescription = {
      state: 'running',
      accountId: this.ownAccountId,
      imageId: 'ami-12345678',
      tags: {},
      ...instance,
    };
    this.instances.set(instance.instanceId, { region: options.region ?? 'us-east-1', description });
    return description;
  }

  addInstanceProfile(profile: InstanceProfileDescription): void {
    this.profiles.set(profile.arn, profile);
  }

  /** Adds an IAM user or role; answers its description with a fresh unique id (AIDA.../AROA...). */
  addPrincipal(
    type: 'user' | 'role',
    name: string,
    options: { accountId?: string; path?: string } = {},
  ): PrincipalDescription {
    const accountId = options.accountId ?? this.ownAccountId;
    const path = options.path ? `${options.path.replace(/^\/|\/$/g, '')}/` : '';
    const uniqueId = `${type === 'user' ? 'AIDA' : 'AROA'}FAKE${String(this.nextId++).padStart(12, '0')}`;
    const principal: PrincipalDescription = { arn: `arn:aws:iam::${accountId}:${type}/${path}${name}`, uniqueId, type };
    this.principals.set(`${accountId}/${type}/${name}`, principal);
    return principal;
  }

  removePrincipal(type: 'user' | 'role', name: string, accountId = this.ownAccountId): void {
    this.principals.delete(`${accountId}/${type}/${name}`);
  }

  /** An IAM user owning static keys (for rotate-root); answers the user's first key. */
  addUserWithKey(
    userName: string,
    key: { accessKeyId: string; secretAccessKey: string },
    accountId = this.ownAccountId,
  ): AccessKey {
    const accessKey: AccessKey = { userName, ...key };
    const user: StoredUser = {
      userName,
      accountId,
      arn: `arn:aws:iam::${accountId}:user/${userName}`,
      userId: `AIDAFAKE${String(this.nextId++).padStart(12, '0')}`,
      keys: [accessKey],
    };
    this.users.set(userName, user);
    return accessKey;
  }

  accessKeysOf(userName: string): string[] {
    return (this.users.get(userName)?.keys ?? []).map((key) => key.accessKeyId);
  }

  /** Lets the provider assume `roleArn`, which then acts on `accountId`. */
  allowStsRole(roleArn: string, accountId = accountOfArn(roleArn)): void {
    this.stsRoles.set(roleArn, accountId);
  }

  /** Makes the next `times` calls of `method` throw `error` (default: every call until cleared). */
  failOn(method: CloudMethod, error: Error, times = Number.POSITIVE_INFINITY): void {
    this.failures.set(method, { error, remaining: times });
  }

  clearFailures(): void {
    this.failures.clear();
  }

  callsTo(method: CloudMethod): CloudCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  // ---- CloudProvider -----------------------------------------------------------------------------------------------

  async describeInstance(scope: CloudScope, instanceId: string): Promise<InstanceDescription | undefined> {
    const account = this.enter('describeInstance', scope, [instanceId]);
    const found = this.instances.get(instanceId);
    const region = scope.region ?? 'us-east-1';
    if (!found || found.region !== region || found.description.accountId !== account) return undefined;
    return structuredClone(found.description);
  }

  async getInstanceProfile(scope: CloudScope, arn: string): Promise<InstanceProfileDescription | undefined> {
    this.enter('getInstanceProfile', scope, [arn], accountOfArn(arn));
    const profile = this.profiles.get(arn);
    return profile && structuredClone(profile);
  }

  async getPrincipal(scope: CloudScope, arn: string): Promise<PrincipalDescription | undefined> {
    const account = this.enter('getPrincipal', scope, [arn], accountOfArn(arn));
    const { type, name } = principalOfArn(arn);
    const principal = this.principals.get(`${account}/${type}/${name}`);
    return principal && { ...principal };
  }

  async forwardCallerIdentity(scope: CloudScope, request: SignedHttpRequest): Promise<HttpResponseSnapshot> {
    this.enter('forwardCallerIdentity', { ...scope, accountId: undefined }, [request]);
    return this.forwardAnswer(scope, request);
  }

  async getCallerIdentity(scope: CloudScope): Promise<CallerIdentity> {
    this.enter('getCallerIdentity', scope, []);
    const user = this.userOfKey(scope);
    if (user) return { arn: user.arn, userId: user.userId, accountId: user.accountId };
    return {
      arn: `arn:aws:iam::${this.ownAccountId}:user/provider`,
      userId: 'AIDAPROVIDERPROVIDER',
      accountId: this.ownAccountId,
    };
  }

  async getCurrentUser(scope: CloudScope): Promise<IamUser> {
    this.enter('getCurrentUser', scope, []);
    const user = this.requireKeyOwner(scope);
    return { userName: user.userName, arn: user.arn, userId: user.userId };
  }

  async listAccessKeys(scope: CloudScope, userName: string): Promise<string[]> {
    this.enter('listAccessKeys', scope, [userName]);
    this.requireKeyOwner(scope);
    return this.accessKeysOf(userName);
  }

  async createAccessKey(scope: CloudScope, userName: string): Promise<AccessKey> {
    this.enter('createAccessKey', scope, [userName]);
    this.requireKeyOwner(scope);
    const user = this.users.get(userName);
    if (!user) throw new CloudUnavailable(`NoSuchEntity: The user with name ${userName} cannot be found.`);
    if (user.keys.length >= 2)
      throw new CloudUnavailable('LimitExceeded: Cannot exceed quota for AccessKeysPerUser: 2');
    const id = this.nextId++;
    const key: AccessKey = {
      userName,
      accessKeyId: `AKIAFAKE${String(id).padStart(12, '0')}`,
      secretAccessKey: `fake-secret-${id}`,
    };
    user.keys.push(key);
    return { ...key };
  }

  async deleteAccessKey(scope: CloudScope, userName: string, accessKeyId: string): Promise<void> {
    this.enter('deleteAccessKey', scope, [userName, accessKeyId]);
    this.requireKeyOwner(scope);
    const user = this.users.get(userName);
    const index = user?.keys.findIndex((key) => key.accessKeyId === accessKeyId) ?? -1;
    if (!user || index < 0)
      throw new CloudUnavailable(`NoSuchEntity: The Access Key with id ${accessKeyId} cannot be found.`);
    user.keys.splice(index, 1);
  }

  // ---- internals ---------------------------------------------------------------------------------------------------

  /** Logs the call, applies injected failures and answers the account the call acts on. */
  private enter(method: CloudMethod, scope: CloudScope, args: unknown[], resourceAccount?: string): string {
    this.calls.push({ method, scope: structuredClone(scope), args });
    const failure = this.failures.get(method);
    if (failure && failure.remaining > 0) {
      failure.remaining -= 1;
      throw failure.error;
    }
    const wanted = scope.accountId ?? resourceAccount;
    if (scope.stsRole) {
      const account = this.stsRoles.get(scope.stsRole.roleArn);
      if (account === undefined) {
        throw new CloudUnavailable(
          `AccessDenied: not authorized to perform sts:AssumeRole on ${scope.stsRole.roleArn}`,
        );
      }
      if (wanted !== undefined && wanted !== account) {
        throw new AuthenticationRefused(
          `the STS role ${scope.stsRole.roleArn} belongs to account "${account}", not "${wanted}"`,
        );
      }
      return account;
    }
    if (wanted !== undefined && wanted !== this.ownAccountId) {
      throw new AuthenticationRefused(
        `no STS role is configured for account "${wanted}" and the provider's credentials belong to account "${this.ownAccountId}"`,
      );
    }
    return this.ownAccountId;
  }

  private userOfKey(scope: CloudScope): StoredUser | undefined {
    for (const user of this.users.values()) {
      const key = user.keys.find((candidate) => candidate.accessKeyId === scope.settings.accessKey);
      if (key) return key.secretAccessKey === scope.settings.secretKey ? user : undefined;
    }
    return undefined;
  }

  private requireKeyOwner(scope: CloudScope): StoredUser {
    const user = this.userOfKey(scope);
    if (!user)
      throw new CloudUnavailable('InvalidClientTokenId: The security token included in the request is invalid.');
    return user;
  }
}
