/**
 * strongroom/aws: the built-in SDK-less AWS provider, the client-side login helpers and the KMS root key.
 *
 * @packageDocumentation
 */
export { AwsCloudProvider, type AwsCloudProviderOptions } from './adapters/aws/provider.js';
export {
  buildIamLoginBody,
  fetchEc2Pkcs7,
  buildEc2LoginBody,
  type LoginCredentials,
  type IamLoginOptions,
  type IamLoginBody,
  type Ec2IdentityOptions,
  type Ec2LoginOptions,
} from './adapters/aws/login-helpers.js';
export { KmsRootKey, type KmsRootKeyOptions } from './adapters/aws/kms-root-key.js';
// Types the options above refer to (an `env`, a credentials callback, the debug hook, the rate limit).
export type { Environment, CredentialSourceName } from './adapters/aws/credentials/credential-source.js';
export type { CredentialEvent } from './adapters/aws/credentials/credentials.js';
export type { RateLimit } from './adapters/aws/api/rate-limiter.js';
export type { AwsCredentials } from './adapters/aws/api/signing.js';
