/** The instance role's temporary credentials from IMDSv2 (the role name listing, then the role's document). */
import { z } from 'zod';
import { CloudUnavailable } from '../../../lib/errors.js';
import type { ImdsClient } from '../api/imds.js';
import type { AwsCredentials } from '../api/signing.js';

const credentialsPath = '/latest/meta-data/iam/security-credentials/';

const instanceRoleDocument = z.object({
  Code: z.string().optional(),
  AccessKeyId: z.string().min(1),
  SecretAccessKey: z.string().min(1),
  Token: z.string().min(1),
  Expiration: z.iso.datetime({ offset: true }),
});

export async function instanceRoleCredentials(imds: ImdsClient): Promise<AwsCredentials> {
  let roleName: string | undefined;
  let document: unknown;
  try {
    roleName = (await imds.get(credentialsPath)).split('\n')[0]?.trim();
    if (!roleName) throw new CloudUnavailable('the instance has no IAM role');
    document = JSON.parse(await imds.get(`${credentialsPath}${encodeURIComponent(roleName)}`));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'unparsable role credentials' : (error as Error).message;
    throw new CloudUnavailable(`instance metadata failed: ${reason}`);
  }
  const parsed = instanceRoleDocument.safeParse(document);
  if (!parsed.success || (parsed.data.Code !== undefined && parsed.data.Code !== 'Success')) {
    throw new CloudUnavailable(`instance metadata returned unusable credentials for role "${roleName}"`);
  }
  return {
    accessKeyId: parsed.data.AccessKeyId,
    secretAccessKey: parsed.data.SecretAccessKey,
    sessionToken: parsed.data.Token,
    expiresAt: new Date(parsed.data.Expiration),
  };
}
