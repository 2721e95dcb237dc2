/** STS calls made with the provider's own credentials: its identity, and assuming per-account roles. */
import { CloudUnavailable } from '../../core/errors.js';
import type { CallerIdentity, StsRoleBinding } from '../../ports/cloud.js';
import type { QueryApiClient, QueryTarget } from './query-api.js';
import type { AwsCredentials } from './signing.js';
import { child, requiredText } from './xml.js';


export async function getCallerIdentity(api: QueryApiClient, target: QueryTarget): Promise<CallerIdentity> {
  const result = child(await api.call(target, 'GetCallerIdentity'), 'GetCallerIdentityResult');
  return {
    arn: requiredText(result, 'sts GetCallerIdentity', 'Arn'),
    userId: requiredText(result, 'sts GetCallerIdentity', 'UserId'),
    accountId: requiredText(result, 'sts GetCallerIdentity', 'Account'),
  };
}

/** Temporary credentials for `role`, valid for STS's default hour. */
export async function assumeRole(
  api: QueryApiClient,
  target: QueryTarget,
  role: StsRoleBinding,
  sessionName: string,
): Promise<AwsCredentials> {
  const params = {
    RoleArn: role.roleArn,
    RoleSessionName: sessionName,
    ...(role.externalId && { ExternalId: role.externalId }),
  };
  const credentials = child(child(await api.call(target, 'AssumeRole', params), 'AssumeRoleResult'), 'Credentials');
  const expiresAt = new Date(requiredText(credentials, 'sts AssumeRole', 'Expiration'));
  if (Number.isNaN(expiresAt.getTime())) throw new CloudUnavailable('sts AssumeRole: answer has an invalid Expiration');
  return {
    accessKeyId: requiredText(credentials, 'sts AssumeRole', 'AccessKeyId'),
    secretAccessKey: requiredText(credentials, 'sts AssumeRole', 'SecretAccessKey'),
    sessionToken: requiredText(credentials, 'sts AssumeRole', 'SessionToken'),
    expiresAt,
  };
}
