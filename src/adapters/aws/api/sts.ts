/** STS calls made with the provider's own credentials: its identity, and assuming per-account roles. */
import type { CallerIdentity, StsRoleBinding } from '../../../ports/cloud.js';
import { credentialsOfAnswer } from './assumed-credentials.js';
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
  return credentialsOfAnswer(await api.call(target, 'AssumeRole', params), 'AssumeRole');
}
