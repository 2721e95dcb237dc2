/** What every source of the base credential chain gets to work with, and what it hands back. */
import { readFile } from 'node:fs/promises';
import type { Clock } from '../../../ports/clock.js';
import type { CloudClientSettings } from '../../../ports/cloud.js';
import { stsEndpoint, type Endpoint } from '../api/endpoints.js';
import type { QueryApiClient, QueryTarget } from '../api/query-api.js';
import { retriesFrom } from '../api/retry.js';
import type { AwsCredentials } from '../api/signing.js';

/** Environment variables by name, as `process.env` holds them: where the AWS code reads CLOUD_*, AWS_* and HOME. */
export type Environment = Record<string, string | undefined>;

/** The names the debug hook reports: where the provider's own credentials came from. */
export type CredentialSourceName =
  'config/client' | 'env:CLOUD' | 'env:AWS' | 'shared-config' | 'web-identity' | 'container' | 'instance-metadata';

export interface SourceContext {
  env: Environment;
  settings: CloudClientSettings;
  api: QueryApiClient;
  clock: Clock;
  fetch: typeof fetch;
  /** Per attempt, for the local credential endpoints (container, instance metadata) and credential_process. */
  localTimeoutMs: number;
}

/** Temporary credentials as a source produced them, with what the debug hook may say about them (never a secret). */
export interface SourcedCredentials {
  source: CredentialSourceName;
  /** E.g. the profile or role ARN: where exactly, never what. */
  detail?: string;
  credentials: AwsCredentials;
}

/** A file's text, or undefined when it does not exist. Other failures (permissions) are reported. */
export async function readOptionalFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The region a source's own STS calls go to: AWS_REGION, AWS_DEFAULT_REGION, else us-east-1. */
export function defaultRegionOf(env: Environment): string {
  return env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
}

/**
 * STS for the chain's own AssumeRole calls: `sts_endpoint` of config/client, else the standard AWS_ENDPOINT_URL_STS /
 * AWS_ENDPOINT_URL variables, else the regional STS.
 */
export function chainStsTarget(
  context: SourceContext,
  region: string,
  credentials: AwsCredentials | undefined,
): QueryTarget {
  const { settings, env } = context;
  const override = settings.stsEndpoint || env.AWS_ENDPOINT_URL_STS || env.AWS_ENDPOINT_URL || '';
  const endpoint: Endpoint = stsEndpoint({ ...settings, stsEndpoint: override }, region);
  return { service: 'sts', endpoint, credentials, maxRetries: retriesFrom(settings.maxRetries) };
}
