/**
 * Web identity (EKS IRSA and other OIDC federations): the token file's current content, exchanged with
 * AssumeRoleWithWebIdentity, an unsigned STS call (the token is the proof). The file is re-read for every exchange,
 * because the platform rotates it.
 */
import { CloudUnavailable } from '../../../lib/errors.js';
import { credentialsOfAnswer } from '../api/assumed-credentials.js';
import { chainStsTarget, readOptionalFile, type SourceContext } from './credential-source.js';
import type { AwsCredentials } from '../api/signing.js';

export interface WebIdentityRole {
  tokenFile: string;
  roleArn: string;
  sessionName?: string;
  region: string;
}

export async function webIdentityCredentials(context: SourceContext, role: WebIdentityRole): Promise<AwsCredentials> {
  const token = (await readOptionalFile(role.tokenFile))?.trim();
  if (!token) throw new CloudUnavailable(`the web identity token file ${role.tokenFile} is missing or empty`);
  const params = {
    RoleArn: role.roleArn,
    RoleSessionName: role.sessionName || `strongroom-${context.clock.now().getTime()}`,
    WebIdentityToken: token,
  };
  const answer = await context.api.call(
    chainStsTarget(context, role.region, undefined),
    'AssumeRoleWithWebIdentity',
    params,
  );
  return credentialsOfAnswer(answer, 'AssumeRoleWithWebIdentity');
}
