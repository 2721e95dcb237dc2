/** A seeded fake AWS and provider factories shared by the AWS adapter tests. */
import { AwsCloudProvider, type AwsCloudProviderOptions } from '../../src/aws.js';
import type { CloudClientSettings, CloudScope } from '../../src/ports/cloud.js';
import { FakeAws, type FakeUser } from '../../src/testing/index.js';

/** Leading zero on purpose: account ids must stay strings. */
export const ownAccount = '012345678901';
export const otherAccount = '210987654321';

/** Nothing listens there: a provider that reaches for instance metadata fails fast instead of touching 169.254.169.254. */
export const noImds = 'http://127.0.0.1:9';

export function settings(overrides: Partial<CloudClientSettings> = {}): CloudClientSettings {
  return {
    accessKey: '',
    secretKey: '',
    endpoint: '',
    iamEndpoint: '',
    stsEndpoint: '',
    stsRegion: '',
    maxRetries: -1,
    ...overrides,
  };
}

export interface World {
  aws: FakeAws;
  user: FakeUser;
  key: { accessKeyId: string; secretAccessKey: string };
  /** Static keys of `user`, every endpoint pointed at the fake. */
  settings: CloudClientSettings;
  scope(overrides?: Partial<CloudScope>): CloudScope;
}

export async function startWorld(options: { clock?: AwsCloudProviderOptions['clock'] } = {}): Promise<World> {
  const aws = await FakeAws.start(options.clock ? { clock: options.clock } : {});
  const user = aws.createUser({ accountId: ownAccount, userName: 'strongroom' });
  const key = aws.createAccessKey(ownAccount, user.userName);
  const base = settings({
    accessKey: key.accessKeyId,
    secretKey: key.secretAccessKey,
    endpoint: aws.url,
    iamEndpoint: aws.url,
    stsEndpoint: aws.url,
  });
  return { aws, user, key, settings: base, scope: (overrides = {}) => ({ settings: base, ...overrides }) };
}

export function newProvider(options: AwsCloudProviderOptions = {}): AwsCloudProvider {
  return new AwsCloudProvider({ env: {}, imdsEndpoint: noImds, retryBaseDelayMs: 1, timeoutMs: 2_000, ...options });
}
