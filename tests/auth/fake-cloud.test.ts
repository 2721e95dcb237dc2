import { describe, expect, it } from 'vitest';
import { AuthenticationRefused, CloudUnavailable } from '../../src/lib/errors.js';
import type { CloudScope } from '../../src/ports/cloud.js';
import { callerIdentityResponse, FakeCloud } from '../support/fake-cloud.js';

const SETTINGS = {
  accessKey: '',
  secretKey: '',
  endpoint: '',
  iamEndpoint: '',
  stsEndpoint: '',
  stsRegion: '',
  maxRetries: -1,
};
const scope = (extra: Partial<CloudScope> = {}): CloudScope => ({ settings: SETTINGS, ...extra });

describe('FakeCloud (the test double of the CloudProvider port)', () => {
  it('describes instances by region and account, and logs every call', async () => {
    const cloud = new FakeCloud();
    cloud.addInstance({ instanceId: 'i-1', tags: { VaultRole: 'v1:...' } }, { region: 'eu-west-1' });
    expect(
      await cloud.describeInstance(scope({ region: 'eu-west-1', accountId: cloud.ownAccountId }), 'i-1'),
    ).toMatchObject({
      instanceId: 'i-1',
      state: 'running',
      tags: { VaultRole: 'v1:...' },
    });
    expect(await cloud.describeInstance(scope({ region: 'us-east-1' }), 'i-1')).toBeUndefined();
    expect(cloud.callsTo('describeInstance').map((call) => call.args)).toEqual([['i-1'], ['i-1']]);
  });

  it('acts for another account only through an STS role it may assume', async () => {
    const cloud = new FakeCloud();
    cloud.addInstance({ instanceId: 'i-2', accountId: '222222222222' }, { region: 'us-east-1' });
    await expect(cloud.describeInstance(scope({ accountId: '222222222222' }), 'i-2')).rejects.toBeInstanceOf(
      AuthenticationRefused,
    );
    const stsRole = { roleArn: 'arn:aws:iam::222222222222:role/vault' };
    await expect(cloud.describeInstance(scope({ accountId: '222222222222', stsRole }), 'i-2')).rejects.toBeInstanceOf(
      CloudUnavailable,
    );
    cloud.allowStsRole(stsRole.roleArn);
    expect(await cloud.describeInstance(scope({ accountId: '222222222222', stsRole }), 'i-2')).toMatchObject({
      accountId: '222222222222',
    });
    await expect(cloud.describeInstance(scope({ accountId: '333333333333', stsRole }), 'i-2')).rejects.toBeInstanceOf(
      AuthenticationRefused,
    );
  });

  it('resolves users and roles by name whatever the ARN path, and instance profiles by ARN', async () => {
    const cloud = new FakeCloud();
    const role = cloud.addPrincipal('role', 'builder', { path: 'ci' });
    expect(await cloud.getPrincipal(scope(), 'arn:aws:iam::123456789012:role/builder')).toEqual(role);
    expect(await cloud.getPrincipal(scope(), 'arn:aws:sts::123456789012:assumed-role/builder/i-1')).toEqual(role);
    expect(await cloud.getPrincipal(scope(), 'arn:aws:iam::123456789012:user/builder')).toBeUndefined();
    const profile = { arn: 'arn:aws:iam::123456789012:instance-profile/p', name: 'p', roleArns: [role.arn] };
    cloud.addInstanceProfile(profile);
    expect(await cloud.getInstanceProfile(scope(), profile.arn)).toEqual(profile);
  });

  it('enforces the two-key limit and recognises only live keys', async () => {
    const cloud = new FakeCloud();
    cloud.addUserWithKey('ellen', { accessKeyId: 'AKIA1', secretAccessKey: 's1' });
    const signed = scope({ settings: { ...SETTINGS, accessKey: 'AKIA1', secretKey: 's1' } });
    expect(await cloud.getCurrentUser(signed)).toMatchObject({ userName: 'ellen' });
    const second = await cloud.createAccessKey(signed, 'ellen');
    await expect(cloud.createAccessKey(signed, 'ellen')).rejects.toThrow('LimitExceeded');
    await cloud.deleteAccessKey(signed, 'ellen', 'AKIA1');
    expect(
      await cloud.listAccessKeys(
        scope({ settings: { ...SETTINGS, accessKey: second.accessKeyId, secretKey: second.secretAccessKey } }),
        'ellen',
      ),
    ).toEqual([second.accessKeyId]);
    await expect(cloud.getCurrentUser(signed)).rejects.toThrow('InvalidClientTokenId');
  });

  it('answers forwarded caller-identity requests as configured, and fails on demand', async () => {
    const cloud = new FakeCloud();
    const request = {
      method: 'POST',
      url: 'https://sts.amazonaws.com/',
      headers: {},
      body: 'Action=GetCallerIdentity&Version=2011-06-15',
    };
    expect((await cloud.forwardCallerIdentity(scope(), request)).body).toContain(
      '<Arn>arn:aws:iam::123456789012:user/client</Arn>',
    );
    cloud.forwardAnswer = () => ({ status: 403, headers: { 'content-type': 'text/xml' }, body: '<ErrorResponse/>' });
    expect((await cloud.forwardCallerIdentity(scope(), request)).status).toBe(403);
    expect(callerIdentityResponse({ arn: 'a', userId: 'u', accountId: '1' }).headers).toEqual({
      'content-type': 'text/xml',
    });
    cloud.failOn('getCallerIdentity', new CloudUnavailable('down'), 1);
    await expect(cloud.getCallerIdentity(scope())).rejects.toThrow('down');
    expect(await cloud.getCallerIdentity(scope())).toMatchObject({ accountId: cloud.ownAccountId });
  });
});
