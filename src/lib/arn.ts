import { InvalidRequest } from './errors.js';

/** The grammar of IAM principal ARNs, as Vault reads them: shared by the auth method and the AWS adapter. */

export type PrincipalType = 'user' | 'role' | 'instance-profile' | 'assumed-role';
const PRINCIPAL_TYPES: ReadonlySet<string> = new Set<PrincipalType>([
  'user',
  'role',
  'instance-profile',
  'assumed-role',
]);

export interface PrincipalArn {
  /** aws, aws-cn, aws-us-gov, ... */
  partition: string;
  service: 'iam' | 'sts';
  accountId: string;
  type: PrincipalType;
  /** The IAM path between the type and the name, without its slashes ('' for none, and always for assumed roles). */
  path: string;
  /** The user, role or instance profile name; for an assumed role, the role's name. */
  friendlyName: string;
  /** The session name of an assumed role, '' otherwise. */
  sessionName: string;
  /** `arn:<partition>:iam::<account>:<type>/<name>`: assumed roles as `role`, the path dropped. */
  canonicalArn: string;
}

/**
 * Parses a user, role, instance-profile or assumed-role ARN. Anything else (a root ARN, a federated user, a malformed
 * string) is InvalidRequest (400) with `error parsing arn "<arn>": <detail>`.
 */
export function parsePrincipalArn(arn: string): PrincipalArn {
  const fail: (detail: string) => never = (detail) => {
    throw new InvalidRequest(`error parsing arn ${JSON.stringify(arn)}: ${detail}`);
  };
  const parts = arn.split(':');
  if (parts.length !== 6) fail(`unrecognized arn: contains ${parts.length} colon-separated parts, expected 6`);
  const [prefix, partition, service, , accountId, resource] = parts as [string, string, string, string, string, string];
  if (prefix !== 'arn') fail('unrecognized arn: does not begin with "arn:"');
  if (!/^aws(?:-[a-z]+)*$/.test(partition)) fail(`unrecognized partition: ${JSON.stringify(partition)}`);
  if (service !== 'iam' && service !== 'sts') fail(`unrecognized service: ${service}, not one of iam or sts`);
  if (!/^\d+$/.test(accountId)) fail(`unrecognized account: ${JSON.stringify(accountId)}`);

  const items = resource.split('/');
  if (items.length < 2)
    fail(`unrecognized arn: ${JSON.stringify(resource)} contains fewer than 2 slash-separated parts`);
  const type = items[0] as string;
  if (!PRINCIPAL_TYPES.has(type)) fail(`unrecognized principal type: ${JSON.stringify(type)}`);

  let path = items.slice(1, -1).join('/');
  let friendlyName = items[items.length - 1] as string;
  let sessionName = '';
  if (type === 'assumed-role') {
    if (items.length < 3)
      fail(`unrecognized arn: ${JSON.stringify(resource)} contains fewer than 3 slash-separated parts`);
    path = '';
    friendlyName = items[1] as string;
    sessionName = items[2] as string;
  }
  if (friendlyName === '') fail('unrecognized arn: empty principal name');

  const canonicalType = type === 'assumed-role' ? 'role' : type;
  return {
    partition,
    service,
    accountId,
    type: type as PrincipalType,
    path,
    friendlyName,
    sessionName,
    canonicalArn: `arn:${partition}:iam::${accountId}:${canonicalType}/${friendlyName}`,
  };
}
