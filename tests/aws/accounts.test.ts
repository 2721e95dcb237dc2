import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { AuthenticationRefused, CloudUnavailable } from '../../src/lib/errors.js';
import { newProvider, otherAccount, ownAccount, startWorld, type World } from './world.js';

const ownInstance = 'i-0000000000000000a';
const otherInstance = 'i-0000000000000000b';

describe('AwsCloudProvider STS roles and the account check (decision 15)', () => {
  let world: World;
  let clock: ManualClock;
  let roleArn: string;
  beforeEach(async () => {
    clock = new ManualClock(new Date());
    world = await startWorld({ clock });
    world.aws.addInstance({ accountId: ownAccount, region: 'us-east-1', instanceId: ownInstance, imageId: 'ami-own' });
    world.aws.addInstance({
      accountId: otherAccount,
      region: 'us-east-1',
      instanceId: otherInstance,
      imageId: 'ami-other',
    });
    roleArn = world.aws.createRole({ accountId: otherAccount, roleName: 'strongroom-reader', externalId: 'ext-1' }).arn;
  });
  afterEach(() => world.aws.stop());

  const otherScope = (externalId = 'ext-1', region = 'us-east-1') =>
    world.scope({ region, accountId: otherAccount, stsRole: { roleArn, externalId } });

  it('reports its own identity with GetCallerIdentity, signed for sts_region when set', async () => {
    const identity = await newProvider({ clock }).getCallerIdentity({
      settings: { ...world.settings, stsRegion: 'eu-central-1' },
    });
    expect(identity).toEqual({ arn: world.user.arn, userId: world.user.userId, accountId: ownAccount });
    expect(world.aws.calls('GetCallerIdentity').map((entry) => [entry.service, entry.region])).toEqual([
      ['sts', 'eu-central-1'],
    ]);
  });

  it('assumes the account role (with its external id) and acts with the temporary credentials', async () => {
    const description = await newProvider({ clock }).describeInstance(otherScope(), otherInstance);
    expect(description?.accountId).toBe(otherAccount);
    const [assume] = world.aws.calls('AssumeRole');
    expect(assume?.accessKeyId).toBe(world.key.accessKeyId);
    const [describeCall] = world.aws.calls('DescribeInstances');
    expect(describeCall?.accessKeyId).toMatch(/^ASIA/);
    expect(describeCall?.headers['x-amz-security-token']).toBeTruthy();
    expect(world.aws.calls('GetCallerIdentity')).toEqual([]);
  });

  it('caches the role credentials per region, STS role and external id, and renews them before expiry', async () => {
    const provider = newProvider({ clock });
    await provider.describeInstance(otherScope(), otherInstance);
    await provider.describeInstance(otherScope(), otherInstance);
    expect(world.aws.calls('AssumeRole')).toHaveLength(1);

    expect(await provider.describeInstance(otherScope('ext-1', 'eu-west-1'), otherInstance)).toBeUndefined();
    expect(world.aws.calls('AssumeRole').map((entry) => entry.region)).toEqual(['us-east-1', 'eu-west-1']);

    await expect(provider.describeInstance(otherScope('wrong'), otherInstance)).rejects.toThrow(
      /sts AssumeRole failed: AccessDenied: .* sts:AssumeRole on resource: arn:aws:iam::210987654321:role\/strongroom-reader/,
    );
    expect(world.aws.calls('AssumeRole')).toHaveLength(3);

    clock.advance(54 * 60);
    await provider.describeInstance(otherScope(), otherInstance);
    expect(world.aws.calls('AssumeRole')).toHaveLength(3);
    clock.advance(2 * 60);
    await provider.describeInstance(otherScope(), otherInstance);
    expect(world.aws.calls('AssumeRole')).toHaveLength(4);
    const inHome = world.aws.calls('DescribeInstances').filter((entry) => entry.region === 'us-east-1');
    expect(inHome.map((entry) => entry.status)).toEqual([200, 200, 200, 200]);
  });

  it('learns its own account once and checks it on every call, even after a success warmed the cache', async () => {
    const provider = newProvider({ clock });
    const own = world.scope({ region: 'us-east-1', accountId: ownAccount });
    expect(await provider.describeInstance(own, ownInstance)).toBeDefined();
    expect(await provider.describeInstance(own, ownInstance)).toBeDefined();

    const foreign = world.scope({ region: 'us-east-1', accountId: otherAccount });
    const refused = provider.describeInstance(foreign, otherInstance);
    await expect(refused).rejects.toThrow(AuthenticationRefused);
    await expect(refused).rejects.toThrow(`account "${otherAccount}"`);
    await expect(refused).rejects.toThrow(`account "${ownAccount}"`);
    await expect(
      provider.getPrincipal(world.scope(), `arn:aws:iam::${otherAccount}:role/strongroom-reader`),
    ).rejects.toThrow(AuthenticationRefused);

    expect(world.aws.calls('GetCallerIdentity')).toHaveLength(1);
    expect(world.aws.calls('DescribeInstances')).toHaveLength(2);
    expect(world.aws.calls('GetRole')).toEqual([]);
  });

  it('does not remember a failed identity lookup', async () => {
    const provider = newProvider({ clock });
    const own = world.scope({ region: 'us-east-1', accountId: ownAccount });
    world.aws.failNext({ kind: 'error', status: 403, code: 'AccessDenied', message: 'no sts' });
    await expect(provider.describeInstance(own, ownInstance)).rejects.toThrow(CloudUnavailable);
    expect(await provider.describeInstance(own, ownInstance)).toBeDefined();
    expect(world.aws.calls('GetCallerIdentity')).toHaveLength(2);
  });

  it('flushes its caches when the credentials or endpoints in force change', async () => {
    const provider = newProvider({ clock });
    const own = world.scope({ region: 'us-east-1', accountId: ownAccount });
    await provider.describeInstance(own, ownInstance);
    await provider.describeInstance(otherScope(), otherInstance);

    const second = world.aws.createAccessKey(ownAccount, 'strongroom');
    const changed = { ...world.settings, accessKey: second.accessKeyId, secretKey: second.secretAccessKey };
    await provider.describeInstance({ ...own, settings: changed }, ownInstance);
    await provider.describeInstance({ ...otherScope(), settings: changed }, otherInstance);
    expect(world.aws.calls('GetCallerIdentity').map((entry) => entry.accessKeyId)).toEqual([
      world.key.accessKeyId,
      second.accessKeyId,
    ]);
    expect(world.aws.calls('AssumeRole').map((entry) => entry.accessKeyId)).toEqual([
      world.key.accessKeyId,
      second.accessKeyId,
    ]);
  });

  it('shares one AssumeRole among concurrent calls', async () => {
    const provider = newProvider({ clock });
    const results = await Promise.all([1, 2, 3, 4].map(() => provider.describeInstance(otherScope(), otherInstance)));
    expect(results.every((description) => description?.instanceId === otherInstance)).toBe(true);
    expect(world.aws.calls('AssumeRole')).toHaveLength(1);
  });
});
