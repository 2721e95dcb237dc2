/** strongroom/aws: the built-in SDK-less AWS provider, the client-side login helpers and the KMS root key. */
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
