// Barrel of the AWS adapter: the built-in cloud provider and the client-side login helpers.
export { AwsCloudProvider, type AwsCloudProviderOptions } from './provider.js';
export {
  buildIamLoginBody,
  fetchEc2Pkcs7,
  buildEc2LoginBody,
  type LoginCredentials,
  type IamLoginOptions,
  type IamLoginBody,
  type Ec2IdentityOptions,
  type Ec2LoginOptions,
} from './login-helpers.js';
