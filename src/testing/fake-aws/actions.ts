/** The EC2, IAM and STS actions the fake endpoint answers, over the in-memory state. */
import {
  callerOf,
  FakeAwsError,
  randomId,
  type FakeAwsState,
  type FakeKey,
  type FakeRole,
  type FakeUser,
} from './state.js';
import { tag, wrap, type FakeService } from './xml.js';

export interface ActionContext {
  state: FakeAwsState;
  caller: FakeKey;
  /** The region of the request's credential scope. */
  region: string;
  params: URLSearchParams;
}

type Action = (context: ActionContext) => string;

const accountOf = (context: ActionContext) => callerOf(context.caller.owner).accountId;

function required(context: Pick<ActionContext, 'params'>, name: string): string {
  const value = context.params.get(name);
  if (!value) throw new FakeAwsError(400, 'ValidationError', `${name} is required`);
  return value;
}

function describeInstances(context: ActionContext): string {
  const requested = [...context.params].filter(([name]) => /^InstanceId\.\d+$/.test(name)).map(([, id]) => id);
  for (const id of requested) {
    if (!/^i-[0-9a-f]{8,17}$/.test(id))
      throw new FakeAwsError(400, 'InvalidInstanceID.Malformed', `Invalid id: "${id}"`);
  }
  const visible = [...context.state.instances.values()].filter(
    (instance) => instance.accountId === accountOf(context) && instance.region === context.region,
  );
  const missing = requested.filter((id) => !visible.some((instance) => instance.instanceId === id));
  if (missing.length > 0) {
    throw new FakeAwsError(400, 'InvalidInstanceID.NotFound', `The instance ID '${missing.join(', ')}' does not exist`);
  }
  const chosen = requested.length > 0 ? visible.filter((instance) => requested.includes(instance.instanceId)) : visible;
  const reservations = chosen.map((instance) => {
    const tags = Object.entries(instance.tags).map(([key, value]) =>
      wrap('item', tag('key', key) + tag('value', value)),
    );
    const profile = instance.iamInstanceProfileArn
      ? wrap('iamInstanceProfile', tag('arn', instance.iamInstanceProfileArn) + tag('id', randomId('AIPA')))
      : '';
    const description =
      tag('instanceId', instance.instanceId) +
      tag('imageId', instance.imageId) +
      wrap('instanceState', tag('code', '16') + tag('name', instance.state)) +
      tag('subnetId', instance.subnetId) +
      tag('vpcId', instance.vpcId) +
      profile +
      wrap('tagSet', tags.join(''));
    const reservation =
      tag('reservationId', randomId('r-', 8).toLowerCase()) + tag('ownerId', instance.accountId) + '<groupSet/>';
    return wrap('item', reservation + wrap('instancesSet', wrap('item', description)));
  });
  return wrap('reservationSet', reservations.join(''));
}

function userNamed(context: ActionContext, name: string | null): FakeUser {
  if (name === null) {
    if (context.caller.owner.kind !== 'user') {
      throw new FakeAwsError(400, 'ValidationError', 'Must specify userName when calling with non-User credentials');
    }
    return context.caller.owner.user;
  }
  const user = context.state.users.get(`${accountOf(context)}/${name}`);
  if (!user) throw new FakeAwsError(404, 'NoSuchEntity', `The user with name ${name} cannot be found.`);
  return user;
}

function roleXml(role: FakeRole): string {
  return tag('Path', role.path) + tag('RoleName', role.roleName) + tag('RoleId', role.roleId) + tag('Arn', role.arn);
}

const ec2Actions: Record<string, Action> = { DescribeInstances: describeInstances };

const iamActions: Record<string, Action> = {
  GetUser(context) {
    const user = userNamed(context, context.params.get('UserName'));
    return wrap(
      'User',
      tag('Path', user.path) + tag('UserName', user.userName) + tag('UserId', user.userId) + tag('Arn', user.arn),
    );
  },
  GetRole(context) {
    const name = required(context, 'RoleName');
    const role = context.state.roles.get(`${accountOf(context)}/${name}`);
    if (!role) throw new FakeAwsError(404, 'NoSuchEntity', `The role with name ${name} cannot be found.`);
    return wrap('Role', roleXml(role));
  },
  GetInstanceProfile(context) {
    const name = required(context, 'InstanceProfileName');
    const account = accountOf(context);
    const profile = context.state.instanceProfiles.get(`${account}/${name}`);
    if (!profile) throw new FakeAwsError(404, 'NoSuchEntity', `Instance Profile ${name} cannot be found.`);
    const roles = profile.roleNames.flatMap((roleName) => context.state.roles.get(`${account}/${roleName}`) ?? []);
    const members = roles.map((role) => wrap('member', roleXml(role))).join('');
    return wrap(
      'InstanceProfile',
      tag('InstanceProfileName', profile.name) + tag('Arn', profile.arn) + wrap('Roles', members),
    );
  },
  ListAccessKeys(context) {
    const user = userNamed(context, context.params.get('UserName'));
    const members = context.state
      .accessKeysOf(user)
      .map((key) =>
        wrap('member', tag('UserName', user.userName) + tag('AccessKeyId', key.accessKeyId) + tag('Status', 'Active')),
      );
    return tag('UserName', user.userName) + wrap('AccessKeyMetadata', members.join('')) + tag('IsTruncated', 'false');
  },
  CreateAccessKey(context) {
    const user = userNamed(context, context.params.get('UserName'));
    const key = context.state.createAccessKey(user.accountId, user.userName);
    const fields = tag('UserName', user.userName) + tag('AccessKeyId', key.accessKeyId) + tag('Status', 'Active');
    return wrap('AccessKey', fields + tag('SecretAccessKey', key.secretAccessKey));
  },
  DeleteAccessKey(context) {
    const user = userNamed(context, context.params.get('UserName'));
    const id = required(context, 'AccessKeyId');
    if (!context.state.accessKeysOf(user).some((key) => key.accessKeyId === id)) {
      throw new FakeAwsError(404, 'NoSuchEntity', `The Access Key with id ${id} cannot be found.`);
    }
    context.state.keys.delete(id);
    return '';
  },
};

const stsActions: Record<string, Action> = {
  GetCallerIdentity(context) {
    const caller = callerOf(context.caller.owner);
    return tag('Arn', caller.arn) + tag('UserId', caller.userId) + tag('Account', caller.accountId);
  },
  AssumeRole(context) {
    const roleArn = required(context, 'RoleArn');
    const sessionName = required(context, 'RoleSessionName');
    const role = [...context.state.roles.values()].find((candidate) => candidate.arn === roleArn);
    const denied = () =>
      new FakeAwsError(
        403,
        'AccessDenied',
        `User: ${callerOf(context.caller.owner).arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`,
      );
    if (!role || (role.externalId !== undefined && context.params.get('ExternalId') !== role.externalId))
      throw denied();
    return assumedRoleXml(context, role, sessionName);
  },
};

/** Actions AWS answers without a signature: the token in the request is the proof. */
export const unsignedActions: Record<string, (context: Omit<ActionContext, 'caller'>) => string> = {
  AssumeRoleWithWebIdentity(context) {
    const roleArn = required(context, 'RoleArn');
    const sessionName = required(context, 'RoleSessionName');
    const token = required(context, 'WebIdentityToken');
    const role = [...context.state.roles.values()].find((candidate) => candidate.arn === roleArn);
    if (!context.state.webIdentityTokens.get(token)?.includes(roleArn) || !role) {
      throw new FakeAwsError(400, 'InvalidIdentityToken', 'The web identity token is not valid for this role');
    }
    return assumedRoleXml(context, role, sessionName);
  },
};

function assumedRoleXml(context: Omit<ActionContext, 'caller'>, role: FakeRole, sessionName: string): string {
  const durationSeconds = Number(context.params.get('DurationSeconds') ?? '3600');
  const issued = context.state.issueSessionCredentials({
    accountId: role.accountId,
    roleName: role.roleName,
    sessionName,
    durationSeconds,
  });
  const credentials =
    tag('AccessKeyId', issued.accessKeyId) +
    tag('SecretAccessKey', issued.secretAccessKey) +
    tag('SessionToken', issued.sessionToken) +
    tag('Expiration', issued.expiration.toISOString());
  const assumed = callerOf({ kind: 'session', role, sessionName });
  return (
    wrap('Credentials', credentials) +
    wrap('AssumedRoleUser', tag('AssumedRoleId', assumed.userId) + tag('Arn', assumed.arn))
  );
}

export const actionsOf: Record<FakeService, Record<string, Action>> = {
  ec2: ec2Actions,
  iam: iamActions,
  sts: stsActions,
};
