/** Credentials from environment variables: the CLOUD_* names of this library, then AWS's standard names. */
import type { AwsCredentials } from '../api/signing.js';
import type { Environment } from './credential-source.js';

function pairFrom(env: Environment, idName: string, secretName: string, tokenName: string): AwsCredentials | undefined {
  const accessKeyId = env[idName];
  const secretAccessKey = env[secretName];
  // Half a pair is skipped, as AWS SDKs do, so the next source gets its chance.
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = env[tokenName];
  return { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) };
}

export const cloudEnvCredentials = (env: Environment) =>
  pairFrom(env, 'CLOUD_ACCESS_KEY', 'CLOUD_SECRET_KEY', 'CLOUD_SESSION_TOKEN');

export const awsEnvCredentials = (env: Environment) =>
  pairFrom(env, 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN');
