/**
 * The in-memory world of the fake AWS endpoint: users, roles, instance profiles, instances, and every key it accepts
 * (long-term user keys, limited to two per user as in AWS, and temporary session keys with tokens and expiry).
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../ports/clock.js';

/** The AWS partitions the fake knows; a user's or role's partition is the one its ARN names. */
export type FakePartition =
  'aws' | 'aws-cn' | 'aws-us-gov' | 'aws-iso' | 'aws-iso-b' | 'aws-iso-e' | 'aws-iso-f' | 'aws-eusc';

/** An IAM user of the fake, as `createUser` made it. */
export interface FakeUser {
  partition: FakePartition;
  accountId: string;
  userName: string;
  path: string;
  arn: string;
  /** The unique id, `AIDA...`. */
  userId: string;
}

/** An IAM role of the fake, as `createRole` made it. */
export interface FakeRole {
  partition: FakePartition;
  accountId: string;
  roleName: string;
  path: string;
  arn: string;
  /** The unique id, `AROA...`. */
  roleId: string;
  /** AssumeRole must present exactly this external id when set. */
  externalId?: string;
}

/** An IAM instance profile of the fake, as `addInstanceProfile` made it. */
export interface FakeInstanceProfile {
  accountId: string;
  name: string;
  arn: string;
  /** The names of its roles, in its own account. */
  roleNames: string[];
}

/** An EC2 instance of the fake, as `addInstance` made it; DescribeInstances answers it in its account and region. */
export interface FakeInstance {
  accountId: string;
  region: string;
  instanceId: string;
  imageId: string;
  /** The EC2 state name, such as `running` (the default) or `stopped`. */
  state: string;
  vpcId?: string;
  subnetId?: string;
  iamInstanceProfileArn?: string;
  tags: Record<string, string>;
}

/** Whose key a FakeKey is: a user's long-term key, or a role session's temporary one. */
export type KeyOwner = { kind: 'user'; user: FakeUser } | { kind: 'session'; role: FakeRole; sessionName: string };

/** A key the fake accepts, as `FakeAws.keys` holds it, secret included. */
export interface FakeKey {
  accessKeyId: string;
  secretAccessKey: string;
  /** Set for a session key, which must present it. */
  sessionToken?: string;
  /** When a session key stops being accepted; absent for a user's key. */
  expiresAt?: Date;
  owner: KeyOwner;
}

/** Temporary credentials of a role session, as `issueSessionCredentials` hands them out. */
export interface IssuedCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

/** An AWS error answer: thrown by the action handlers, rendered in the service's error format. */
export class FakeAwsError extends Error {
  /** `status` and `code` are what the fake answers, as AWS would (e.g. 404 `NoSuchEntity`). */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function randomId(prefix: string, length = 16): string {
  return prefix + [...randomBytes(length)].map((byte) => alphabet[byte % 32]).join('');
}

export function callerOf(owner: KeyOwner): { accountId: string; arn: string; userId: string } {
  if (owner.kind === 'user') return { accountId: owner.user.accountId, arn: owner.user.arn, userId: owner.user.userId };
  const { role, sessionName } = owner;
  return {
    accountId: role.accountId,
    arn: `arn:${role.partition}:sts::${role.accountId}:assumed-role/${role.roleName}/${sessionName}`,
    userId: `${role.roleId}:${sessionName}`,
  };
}

export class FakeAwsState {
  /** By `<account id>/<user name>`. */
  readonly users = new Map<string, FakeUser>();
  /** By `<account id>/<role name>`. */
  readonly roles = new Map<string, FakeRole>();
  /** By `<account id>/<profile name>`. */
  readonly instanceProfiles = new Map<string, FakeInstanceProfile>();
  /** By instance id. */
  readonly instances = new Map<string, FakeInstance>();
  /** Every key the fake accepts, by access key id: users' keys and role sessions' keys. */
  readonly keys = new Map<string, FakeKey>();
  /** Web identity tokens (as an OIDC provider would sign them) and the role ARNs each may assume. */
  readonly webIdentityTokens = new Map<string, string[]>();

  constructor(
    /** Dates session keys and their expiry, and the signature checks. */
    readonly clock: Clock,
  ) {}

  /** An IAM user with a fresh unique id; `path` defaults to `/`, `partition` to `aws`. */
  createUser(input: { accountId: string; userName: string; path?: string; partition?: FakePartition }): FakeUser {
    const partition = input.partition ?? 'aws';
    const path = input.path ?? '/';
    const arn = `arn:${partition}:iam::${input.accountId}:user${path}${input.userName}`;
    const user = {
      partition,
      accountId: input.accountId,
      userName: input.userName,
      path,
      arn,
      userId: randomId('AIDA'),
    };
    this.users.set(`${input.accountId}/${input.userName}`, user);
    return user;
  }

  /** An IAM role with a fresh unique id; `path` defaults to `/`, `partition` to `aws`. */
  createRole(input: {
    accountId: string;
    roleName: string;
    path?: string;
    externalId?: string;
    partition?: FakePartition;
  }): FakeRole {
    const partition = input.partition ?? 'aws';
    const path = input.path ?? '/';
    const role: FakeRole = {
      partition,
      accountId: input.accountId,
      roleName: input.roleName,
      path,
      arn: `arn:${partition}:iam::${input.accountId}:role${path}${input.roleName}`,
      roleId: randomId('AROA'),
      ...(input.externalId !== undefined && { externalId: input.externalId }),
    };
    this.roles.set(`${input.accountId}/${input.roleName}`, role);
    return role;
  }

  /** A long-term key of a user; AWS allows two per user. */
  createAccessKey(accountId: string, userName: string): { accessKeyId: string; secretAccessKey: string } {
    const user = this.users.get(`${accountId}/${userName}`);
    if (!user) throw new FakeAwsError(404, 'NoSuchEntity', `The user with name ${userName} cannot be found.`);
    if (this.accessKeysOf(user).length >= 2) {
      throw new FakeAwsError(409, 'LimitExceeded', 'Cannot exceed quota for AccessKeysPerUser: 2');
    }
    const key = {
      accessKeyId: randomId('AKIA'),
      secretAccessKey: randomBytes(30).toString('base64'),
      owner: { kind: 'user' as const, user },
    };
    this.keys.set(key.accessKeyId, key);
    return { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey };
  }

  /** The long-term keys of `user`, as `createAccessKey` (or CreateAccessKey) made them. */
  accessKeysOf(user: FakeUser): FakeKey[] {
    return [...this.keys.values()].filter((key) => key.owner.kind === 'user' && key.owner.user === user);
  }

  /** Temporary credentials of a role session, as AssumeRole or an instance profile would hand out. */
  issueSessionCredentials(input: {
    accountId: string;
    roleName: string;
    sessionName: string;
    durationSeconds?: number;
  }): IssuedCredentials {
    const role = this.roles.get(`${input.accountId}/${input.roleName}`);
    if (!role)
      throw new FakeAwsError(403, 'AccessDenied', `role ${input.roleName} does not exist in ${input.accountId}`);
    const expiration = new Date(this.clock.now().getTime() + (input.durationSeconds ?? 3600) * 1000);
    const key: FakeKey = {
      accessKeyId: randomId('ASIA'),
      secretAccessKey: randomBytes(30).toString('base64'),
      sessionToken: randomBytes(48).toString('base64'),
      expiresAt: expiration,
      owner: { kind: 'session', role, sessionName: input.sessionName },
    };
    this.keys.set(key.accessKeyId, key);
    return {
      accessKeyId: key.accessKeyId,
      secretAccessKey: key.secretAccessKey,
      sessionToken: key.sessionToken as string,
      expiration,
    };
  }

  /** A web identity token (as EKS projects into a pod) that AssumeRoleWithWebIdentity accepts for `roleArn`. */
  issueWebIdentityToken(roleArn: string): string {
    const token = `fake-oidc.${randomBytes(32).toString('base64url')}`;
    this.webIdentityTokens.set(token, [roleArn]);
    return token;
  }

  /** An instance profile holding the roles named (in the same account); `path` defaults to `/`. */
  addInstanceProfile(input: {
    accountId: string;
    name: string;
    roleNames: string[];
    path?: string;
  }): FakeInstanceProfile {
    const arn = `arn:aws:iam::${input.accountId}:instance-profile${input.path ?? '/'}${input.name}`;
    const profile = { accountId: input.accountId, name: input.name, arn, roleNames: input.roleNames };
    this.instanceProfiles.set(`${input.accountId}/${input.name}`, profile);
    return profile;
  }

  /** An EC2 instance; `state` defaults to `running`, `tags` to none. */
  addInstance(
    input: Omit<FakeInstance, 'state' | 'tags'> & { state?: string; tags?: Record<string, string> },
  ): FakeInstance {
    const instance = { ...input, state: input.state ?? 'running', tags: input.tags ?? {} };
    this.instances.set(input.instanceId, instance);
    return instance;
  }
}
