// The default cloud provider of AuthMethod, loaded on its first call: the root entry then pulls in no AWS, HTTPS or XML
// code for a service that only uses the KV engine, or that passes a provider of its own.
import type { CloudProvider } from '../../ports/cloud.js';
import type { AwsCloudProviderOptions } from './provider.js';

type ProviderMethod = keyof CloudProvider;

const METHODS = [
  'describeInstance',
  'getInstanceProfile',
  'getPrincipal',
  'forwardCallerIdentity',
  'getCallerIdentity',
  'getCurrentUser',
  'listAccessKeys',
  'createAccessKey',
  'deleteAccessKey',
] as const satisfies readonly ProviderMethod[];

/** A CloudProvider that builds the built-in AwsCloudProvider with `options` when a method is first called. */
export function lazyAwsProvider(options: AwsCloudProviderOptions): CloudProvider {
  let loading: Promise<CloudProvider> | undefined;
  const provider = () =>
    (loading ??= import('./provider.js').then(({ AwsCloudProvider }) => new AwsCloudProvider(options)));
  const call =
    (method: ProviderMethod) =>
    async (...args: unknown[]): Promise<unknown> => {
      const target = await provider();
      return (target[method] as (...given: unknown[]) => Promise<unknown>)(...args);
    };
  return Object.fromEntries(METHODS.map((method) => [method, call(method)])) as unknown as CloudProvider;
}
