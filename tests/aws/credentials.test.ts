import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { CloudUnavailable } from '../../src/lib/errors.js';
import { FakeImds } from '../../src/testing/index.js';
import { newProvider, ownAccount, settings, startWorld, type World } from './world.js';

describe('AwsCloudProvider credential chain', () => {
  let world: World;
  let clock: ManualClock;
  let imds: FakeImds;
  /** Endpoints at the fake, no static keys. */
  let keyless: ReturnType<typeof settings>;
  beforeEach(async () => {
    clock = new ManualClock(new Date());
    world = await startWorld({ clock });
    world.aws.createRole({ accountId: ownAccount, roleName: 'instance-role' });
    imds = await FakeImds.start({
      roleName: 'instance-role',
      credentials: () =>
        world.aws.issueSessionCredentials({
          accountId: ownAccount,
          roleName: 'instance-role',
          sessionName: 'i-0123456789abcdef0',
          durationSeconds: 3600,
        }),
    });
    keyless = settings({ endpoint: world.aws.url, iamEndpoint: world.aws.url, stsEndpoint: world.aws.url });
  });
  afterEach(async () => {
    await world.aws.stop();
    await imds.stop();
  });

  const callerArn = async (provider: ReturnType<typeof newProvider>, chosen = keyless) =>
    (await provider.getCallerIdentity({ settings: chosen })).arn;

  it('uses the static keys of config/client first, ignoring env and instance metadata', async () => {
    const env = { CLOUD_ACCESS_KEY: 'AKIAENVENVENVENVENV0', CLOUD_SECRET_KEY: 'env-secret' };
    expect(await callerArn(newProvider({ env, clock, imdsEndpoint: imds.url }), world.settings)).toBe(world.user.arn);
    expect(world.aws.requests.map((entry) => entry.accessKeyId)).toEqual([world.key.accessKeyId]);
    expect(imds.requests).toEqual([]);
  });

  it('falls back to CLOUD_ACCESS_KEY / CLOUD_SECRET_KEY / CLOUD_SESSION_TOKEN from env', async () => {
    const session = world.aws.issueSessionCredentials({
      accountId: ownAccount,
      roleName: 'instance-role',
      sessionName: 'ci',
    });
    const env = {
      CLOUD_ACCESS_KEY: session.accessKeyId,
      CLOUD_SECRET_KEY: session.secretAccessKey,
      CLOUD_SESSION_TOKEN: session.sessionToken,
    };
    const arn = await callerArn(newProvider({ env, clock, imdsEndpoint: imds.url }));
    expect(arn).toBe(`arn:aws:sts::${ownAccount}:assumed-role/instance-role/ci`);
    expect(world.aws.requests[0]?.headers['x-amz-security-token']).toBe(session.sessionToken);
    expect(imds.requests).toEqual([]);
  });

  it('reads env at call time, so a changed variable takes effect', async () => {
    const env: Record<string, string | undefined> = {
      CLOUD_ACCESS_KEY: world.key.accessKeyId,
      CLOUD_SECRET_KEY: world.key.secretAccessKey,
    };
    const provider = newProvider({ env, clock, imdsEndpoint: imds.url });
    expect(await callerArn(provider)).toBe(world.user.arn);
    env.CLOUD_ACCESS_KEY = undefined;
    expect(await callerArn(provider)).toMatch(/assumed-role\/instance-role/);
  });

  it('falls back to IMDSv2 instance role credentials: token PUT, role listing, then the role', async () => {
    const arn = await callerArn(newProvider({ clock, imdsEndpoint: imds.url }));
    expect(arn).toBe(`arn:aws:sts::${ownAccount}:assumed-role/instance-role/i-0123456789abcdef0`);
    expect(imds.requests.map((entry) => [entry.method, entry.path, entry.withToken])).toEqual([
      ['PUT', '/latest/api/token', false],
      ['GET', '/latest/meta-data/iam/security-credentials/', true],
      ['GET', '/latest/meta-data/iam/security-credentials/instance-role', true],
    ]);
  });

  it('keeps instance credentials until five minutes before expiry, then fetches new ones', async () => {
    const provider = newProvider({ clock, imdsEndpoint: imds.url });
    const roleFetches = () => imds.requests.filter((entry) => entry.path.endsWith('/instance-role')).length;
    await callerArn(provider);
    clock.advance(54 * 60);
    await callerArn(provider);
    expect(roleFetches()).toBe(1);
    clock.advance(2 * 60);
    await callerArn(provider);
    expect(roleFetches()).toBe(2);
    const keys = world.aws.requests.map((entry) => entry.accessKeyId);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[1]);
    expect(imds.requests.filter((entry) => entry.method === 'PUT')).toHaveLength(1);
  });

  it('starts a new IMDS session when its token is refused', async () => {
    const provider = newProvider({ clock, imdsEndpoint: imds.url });
    await callerArn(provider);
    imds.revokeTokens();
    clock.advance(56 * 60);
    await callerArn(provider);
    expect(imds.requests.filter((entry) => entry.method === 'PUT')).toHaveLength(2);
    expect(imds.requests.filter((entry) => entry.status === 401)).toHaveLength(1);
  });

  it('fails clearly when no source has credentials, and when the instance has no role', async () => {
    const nowhere = newProvider({ clock });
    const failure = callerArn(nowhere);
    await expect(failure).rejects.toThrow(CloudUnavailable);
    await expect(failure).rejects.toThrow(/no cloud credentials: .*CLOUD_ACCESS_KEY.*instance metadata failed/);

    const roleless = await FakeImds.start({});
    try {
      await expect(callerArn(newProvider({ clock, imdsEndpoint: roleless.url }))).rejects.toThrow(
        /the instance has no IAM role/,
      );
    } finally {
      await roleless.stop();
    }
  });

  it('refuses half-configured static keys without revealing the secret', async () => {
    const half = settings({ ...keyless, secretKey: 'only-the-secret' });
    const failure = callerArn(newProvider({ clock, imdsEndpoint: imds.url }), half);
    await expect(failure).rejects.toThrow('config/client has an access_key or a secret_key but not both');
    await expect(failure).rejects.not.toThrow(/only-the-secret/);
  });
});
