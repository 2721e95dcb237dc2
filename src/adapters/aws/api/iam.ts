/** IAM calls: principal and instance-profile lookups by name, and the access-key calls of root rotation. */
import type { AccessKey, IamUser, InstanceProfileDescription, PrincipalDescription } from '../../../ports/cloud.js';
import { unlessNotFound, type QueryApiClient, type QueryTarget } from './query-api.js';
import { child, entries, requiredText, text, type XmlNode } from './xml.js';

const notFoundCodes = ['NoSuchEntity'];

function result(root: XmlNode, action: string): XmlNode {
  return child(root, `${action}Result`);
}

export async function getInstanceProfile(
  api: QueryApiClient,
  target: QueryTarget,
  name: string,
): Promise<InstanceProfileDescription | undefined> {
  const root = await unlessNotFound(notFoundCodes, () =>
    api.call(target, 'GetInstanceProfile', { InstanceProfileName: name }),
  );
  if (root === undefined) return undefined;
  const profile = child(result(root, 'GetInstanceProfile'), 'InstanceProfile');
  return {
    arn: requiredText(profile, 'iam GetInstanceProfile', 'Arn'),
    name: requiredText(profile, 'iam GetInstanceProfile', 'InstanceProfileName'),
    roleArns: entries(profile, 'Roles').flatMap((role) => text(role, 'Arn') ?? []),
  };
}

/** GetUser or GetRole by friendly name; the unique id is the AIDA.../AROA... id. */
export async function getPrincipal(
  api: QueryApiClient,
  target: QueryTarget,
  type: 'user' | 'role',
  name: string,
): Promise<PrincipalDescription | undefined> {
  const [action, element, nameParam, idField] =
    type === 'user'
      ? (['GetUser', 'User', 'UserName', 'UserId'] as const)
      : (['GetRole', 'Role', 'RoleName', 'RoleId'] as const);
  const root = await unlessNotFound(notFoundCodes, () => api.call(target, action, { [nameParam]: name }));
  if (root === undefined) return undefined;
  const principal = child(result(root, action), element);
  const context = `iam ${action}`;
  return { arn: requiredText(principal, context, 'Arn'), uniqueId: requiredText(principal, context, idField), type };
}

/** GetUser without a name: the user owning the credentials in use. */
export async function getCurrentUser(api: QueryApiClient, target: QueryTarget): Promise<IamUser> {
  const user = child(result(await api.call(target, 'GetUser'), 'GetUser'), 'User');
  return {
    userName: requiredText(user, 'iam GetUser', 'UserName'),
    arn: requiredText(user, 'iam GetUser', 'Arn'),
    userId: requiredText(user, 'iam GetUser', 'UserId'),
  };
}

export async function listAccessKeys(api: QueryApiClient, target: QueryTarget, userName: string): Promise<string[]> {
  const ids: string[] = [];
  let marker: string | undefined;
  do {
    const params = { UserName: userName, ...(marker && { Marker: marker }) };
    const page = result(await api.call(target, 'ListAccessKeys', params), 'ListAccessKeys');
    ids.push(...entries(page, 'AccessKeyMetadata').flatMap((key) => text(key, 'AccessKeyId') ?? []));
    marker = text(page, 'IsTruncated') === 'true' ? text(page, 'Marker') : undefined;
  } while (marker);
  return ids;
}

export async function createAccessKey(api: QueryApiClient, target: QueryTarget, userName: string): Promise<AccessKey> {
  const root = await api.call(target, 'CreateAccessKey', { UserName: userName });
  const key = child(result(root, 'CreateAccessKey'), 'AccessKey');
  return {
    userName: requiredText(key, 'iam CreateAccessKey', 'UserName'),
    accessKeyId: requiredText(key, 'iam CreateAccessKey', 'AccessKeyId'),
    secretAccessKey: requiredText(key, 'iam CreateAccessKey', 'SecretAccessKey'),
  };
}

export async function deleteAccessKey(
  api: QueryApiClient,
  target: QueryTarget,
  userName: string,
  accessKeyId: string,
): Promise<void> {
  await api.call(target, 'DeleteAccessKey', { UserName: userName, AccessKeyId: accessKeyId });
}
