// The credential chain for code that acts as itself, with no config/client: the KMS root key, and the `strongroom
// login` command, which signs its iam login with whatever identity the environment gives it.
import type { Clock } from '../../../ports/clock.js';
import { defaultImdsEndpoint, ImdsClient } from '../api/imds.js';
import { QueryApiClient } from '../api/query-api.js';
import type { AwsCredentials } from '../api/signing.js';
import { ecsCredentialsEndpoint } from './container-credentials.js';
import { CredentialChain, type Environment } from './credentials.js';

/**
 * The chain's credentials from `env` alone: CLOUD_* and AWS_* variables, the shared files, web identity, container
 * credentials, the instance role. `imdsEndpoint` is the instance metadata service (AWS's own by default).
 */
export function defaultCredentials(
  env: Environment,
  clock: Clock,
  fetchImpl: typeof fetch,
  imdsEndpoint: string = defaultImdsEndpoint,
): () => Promise<AwsCredentials> {
  const localTimeoutMs = 2_000;
  const imds = new ImdsClient({ endpoint: imdsEndpoint, timeoutMs: localTimeoutMs, clock, fetch: fetchImpl });
  const api = new QueryApiClient({ fetch: fetchImpl, clock, timeoutMs: 10_000, retryBaseDelayMs: 200 });
  const chain = new CredentialChain({
    env,
    api,
    imds,
    clock,
    fetch: fetchImpl,
    localTimeoutMs,
    containerEndpoint: ecsCredentialsEndpoint,
  });
  return () =>
    chain.resolve({
      accessKey: '',
      secretKey: '',
      endpoint: '',
      iamEndpoint: '',
      stsEndpoint: '',
      stsRegion: '',
      maxRetries: -1,
    });
}
