/**
 * Container credentials (ECS task roles, EKS Pod Identity): a local HTTP endpoint named by
 * AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (on ECS's fixed address) or AWS_CONTAINER_CREDENTIALS_FULL_URI, with the
 * Authorization header from AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (re-read each time) or _TOKEN.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { CloudUnavailable } from '../../../lib/errors.js';
import { readOptionalFile, type SourceContext } from './credential-source.js';
import { describeTransportError } from '../api/retry.js';
import type { AwsCredentials } from '../api/signing.js';

export const ecsCredentialsEndpoint = 'http://169.254.170.2';

/** Plain HTTP only to addresses that cannot leave the host or task: the token and the answer are secrets. */
const localHosts = new Set(['169.254.170.2', '169.254.170.23', '[fd00:ec2::23]', 'localhost', '[::1]']);

const answerSchema = z.object({
  AccessKeyId: z.string().min(1),
  SecretAccessKey: z.string().min(1),
  Token: z.string().min(1),
  Expiration: z.iso.datetime({ offset: true }),
});

function isLocal(url: URL): boolean {
  return localHosts.has(url.hostname) || (isIP(url.hostname) === 4 && url.hostname.startsWith('127.'));
}

/** The endpoint to ask, or undefined when the container variables are unset. */
export function containerEndpointOf(env: SourceContext['env'], relativeBase: string): URL | undefined {
  if (env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI)
    return new URL(env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI, relativeBase);
  const full = env.AWS_CONTAINER_CREDENTIALS_FULL_URI;
  if (!full) return undefined;
  let url: URL;
  try {
    url = new URL(full);
  } catch {
    throw new CloudUnavailable('AWS_CONTAINER_CREDENTIALS_FULL_URI is not a valid URL');
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLocal(url))) return url;
  throw new CloudUnavailable(
    'AWS_CONTAINER_CREDENTIALS_FULL_URI must be https:// or a loopback or container-agent address',
  );
}

export async function containerCredentials(context: SourceContext, url: URL): Promise<AwsCredentials> {
  const { env } = context;
  const fromFile = env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE
    ? (await readOptionalFile(env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE))?.trim()
    : undefined;
  if (env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE && !fromFile) {
    throw new CloudUnavailable('AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE names a missing or empty file');
  }
  const authorization = fromFile ?? env.AWS_CONTAINER_AUTHORIZATION_TOKEN;
  let status: number;
  let body: string;
  try {
    const response = await context.fetch(url, {
      headers: authorization ? { Authorization: authorization } : {},
      redirect: 'manual',
      signal: AbortSignal.timeout(context.localTimeoutMs),
    });
    status = response.status;
    body = await response.text();
  } catch (error) {
    throw new CloudUnavailable(
      `the container credentials endpoint ${url.origin} failed: ${describeTransportError(error)}`,
    );
  }
  if (status !== 200)
    throw new CloudUnavailable(`the container credentials endpoint ${url.origin} answered HTTP ${status}`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    // The parser's message quotes the body, which may hold the secret.
    json = undefined;
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success)
    throw new CloudUnavailable(`the container credentials endpoint ${url.origin} answered unusable credentials`);
  return {
    accessKeyId: parsed.data.AccessKeyId,
    secretAccessKey: parsed.data.SecretAccessKey,
    sessionToken: parsed.data.Token,
    expiresAt: new Date(parsed.data.Expiration),
  };
}
