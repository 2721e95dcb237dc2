import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloudUnavailable } from '../../src/lib/errors.js';
import { newProvider, ownAccount, startWorld, type World } from './world.js';

describe('AwsCloudProvider.describeInstance', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld();
    world.aws.addInstance({
      accountId: ownAccount,
      region: 'us-east-1',
      instanceId: 'i-0123456789abcdef0',
      imageId: 'ami-12345678',
      vpcId: 'vpc-1',
      subnetId: 'subnet-1',
      iamInstanceProfileArn: `arn:aws:iam::${ownAccount}:instance-profile/web`,
      tags: { Name: 'web', role_tag: 'v1:abc' },
    });
    world.aws.addInstance({
      accountId: ownAccount,
      region: 'eu-west-1',
      instanceId: 'i-00000000000000e01',
      imageId: 'ami-eu',
      state: 'stopped',
    });
  });
  afterEach(() => world.aws.stop());

  it('describes an instance with state, owner, image, network, profile and tags', async () => {
    const description = await newProvider().describeInstance(
      world.scope({ region: 'us-east-1', accountId: ownAccount }),
      'i-0123456789abcdef0',
    );
    expect(description).toEqual({
      instanceId: 'i-0123456789abcdef0',
      state: 'running',
      accountId: ownAccount,
      imageId: 'ami-12345678',
      vpcId: 'vpc-1',
      subnetId: 'subnet-1',
      iamInstanceProfileArn: `arn:aws:iam::${ownAccount}:instance-profile/web`,
      tags: { Name: 'web', role_tag: 'v1:abc' },
    });
  });

  it('leaves absent attributes out and keeps the leading zero of the owner account', async () => {
    const description = await newProvider().describeInstance(
      world.scope({ region: 'eu-west-1' }),
      'i-00000000000000e01',
    );
    expect(description).toEqual({
      instanceId: 'i-00000000000000e01',
      state: 'stopped',
      accountId: '012345678901',
      imageId: 'ami-eu',
      tags: {},
    });
  });

  it('signs for the region of the call, also when the endpoint override serves every region', async () => {
    const provider = newProvider();
    expect(
      await provider.describeInstance(world.scope({ region: 'us-east-1' }), 'i-00000000000000e01'),
    ).toBeUndefined();
    expect(await provider.describeInstance(world.scope({ region: 'eu-west-1' }), 'i-00000000000000e01')).toBeDefined();
    const regions = world.aws.calls('DescribeInstances').map((entry) => [entry.region, entry.status]);
    expect(regions).toEqual([
      ['us-east-1', 400],
      ['eu-west-1', 200],
    ]);
    expect(world.aws.calls('DescribeInstances').every((entry) => entry.service === 'ec2')).toBe(true);
  });

  it('uses CLOUD_REGION when the scope names no region, else us-east-1', async () => {
    await newProvider({ env: { CLOUD_REGION: 'eu-west-1' } }).describeInstance(world.scope(), 'i-00000000000000e01');
    await newProvider().describeInstance(world.scope(), 'i-00000000000000e01');
    expect(world.aws.calls('DescribeInstances').map((entry) => entry.region)).toEqual(['eu-west-1', 'us-east-1']);
  });

  it('answers undefined for an unknown or malformed instance id', async () => {
    const provider = newProvider();
    expect(await provider.describeInstance(world.scope(), 'i-0000000000000dead')).toBeUndefined();
    expect(await provider.describeInstance(world.scope(), 'not-an-instance')).toBeUndefined();
    expect(world.aws.calls('DescribeInstances').map((entry) => entry.errorCode)).toEqual([
      'InvalidInstanceID.NotFound',
      'InvalidInstanceID.Malformed',
    ]);
  });

  it('maps other AWS errors to CloudUnavailable naming the code and message', async () => {
    world.aws.failNext({
      kind: 'error',
      status: 403,
      code: 'UnauthorizedOperation',
      message: 'You are not authorized',
    });
    const failure = newProvider().describeInstance(world.scope(), 'i-0123456789abcdef0');
    await expect(failure).rejects.toThrow(CloudUnavailable);
    await expect(failure).rejects.toThrow(
      'ec2 DescribeInstances failed: UnauthorizedOperation: You are not authorized (HTTP 403)',
    );
  });
});
