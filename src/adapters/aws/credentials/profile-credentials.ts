/**
 * A named profile of the shared files, resolved as the AWS CLI does: `role_arn` (assumed with the credentials of
 * `source_profile`, which may itself be a role, or of `credential_source`, or with `web_identity_token_file`), else
 * static keys, else `credential_process`.
 */
import { CloudUnavailable } from '../../../lib/errors.js';
import { processCredentials } from './credential-process.js';
import { chainStsTarget, defaultRegionOf, type SourceContext } from './credential-source.js';
import { awsEnvCredentials } from './env-credentials.js';
import type { Profile, SharedFiles } from './shared-config-files.js';
import type { AwsCredentials } from '../api/signing.js';
import { assumeRole } from '../api/sts.js';
import { webIdentityCredentials } from './web-identity.js';

/** Where a profile's `credential_source` points: the other sources of the chain, supplied by it. */
export interface CredentialSources {
  container(): Promise<AwsCredentials>;
  instanceMetadata(): Promise<AwsCredentials>;
}

const maxChainLength = 8;

/** What resolving one profile of a chain works with: the chain's context and the profiles visited on the way. */
interface Resolution {
  context: SourceContext;
  files: SharedFiles;
  sources: CredentialSources;
  visited: string[];
}

export async function profileCredentials(
  context: SourceContext,
  files: SharedFiles,
  name: string,
  sources: CredentialSources,
  visited: readonly string[] = [],
): Promise<AwsCredentials> {
  const profile = files.profiles.get(name);
  if (!profile)
    throw new CloudUnavailable(`profile "${name}" is not in ${files.paths.join(' or ') || 'any shared file'}`);
  if (visited.includes(name) || visited.length >= maxChainLength) {
    throw new CloudUnavailable(
      `profile "${name}": source_profile chain loops or is too long (${[...visited, name].join(' -> ')})`,
    );
  }
  const fail = (why: string) => new CloudUnavailable(`profile "${name}": ${why}`);
  try {
    if (profile.role_arn)
      return await assumedRole({ context, files, sources, visited: [...visited, name] }, name, profile);
    const statics = staticKeys(profile);
    if (statics) return statics;
    if (profile.credential_process) {
      return await processCredentials(profile.credential_process, context.env, context.localTimeoutMs * 5);
    }
  } catch (error) {
    if (error instanceof CloudUnavailable && error.message.startsWith('profile "')) throw error;
    throw fail(error instanceof Error ? error.message : String(error));
  }
  throw fail('has neither role_arn, aws_access_key_id + aws_secret_access_key, nor credential_process');
}

function staticKeys(profile: Profile): AwsCredentials | undefined {
  const {
    aws_access_key_id: accessKeyId,
    aws_secret_access_key: secretAccessKey,
    aws_session_token: sessionToken,
  } = profile;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) };
}

async function assumedRole(resolution: Resolution, name: string, profile: Profile): Promise<AwsCredentials> {
  const { context } = resolution;
  const roleArn = profile.role_arn as string;
  const region = profile.region || defaultRegionOf(context.env);
  if (profile.web_identity_token_file) {
    return webIdentityCredentials(context, {
      tokenFile: profile.web_identity_token_file,
      roleArn,
      ...(profile.role_session_name && { sessionName: profile.role_session_name }),
      region,
    });
  }
  const base = await sourceCredentials(resolution, name, profile);
  const sessionName = profile.role_session_name || `strongroom-${context.clock.now().getTime()}`;
  const binding = { roleArn, ...(profile.external_id && { externalId: profile.external_id }) };
  return assumeRole(context.api, chainStsTarget(context, region, base), binding, sessionName);
}

async function sourceCredentials(resolution: Resolution, name: string, profile: Profile): Promise<AwsCredentials> {
  const { context, files, sources, visited } = resolution;
  const source = profile.source_profile;
  if (source !== undefined) {
    // A profile naming itself as its source means "my own static keys", as in the AWS CLI.
    const own = source === name ? staticKeys(profile) : undefined;
    return own ?? profileCredentials(context, files, source, sources, visited);
  }
  switch (profile.credential_source) {
    case 'Environment': {
      const fromEnv = awsEnvCredentials(context.env);
      if (!fromEnv)
        throw new CloudUnavailable(
          'credential_source Environment, but AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are not set',
        );
      return fromEnv;
    }
    case 'EcsContainer':
      return sources.container();
    case 'Ec2InstanceMetadata':
      return sources.instanceMetadata();
    case undefined:
      throw new CloudUnavailable('role_arn needs source_profile, credential_source or web_identity_token_file');
    default:
      throw new CloudUnavailable(`unknown credential_source "${profile.credential_source}"`);
  }
}
