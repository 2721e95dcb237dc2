import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloudUnavailable, InvalidRequest } from '../../src/lib/errors.js';
import { newProvider, ownAccount, settings, startWorld, type World } from './world.js';

describe('AwsCloudProvider IAM lookups', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(() => world.aws.stop());

  it('gets an instance profile with its role ARNs, signed for the partition home region', async () => {
    const web = world.aws.createRole({ accountId: ownAccount, roleName: 'web', path: '/app/' });
    world.aws.addInstanceProfile({ accountId: ownAccount, name: 'web-profile', roleNames: ['web'], path: '/app/' });
    const profile = await newProvider().getInstanceProfile(
      world.scope({ region: 'eu-west-1', accountId: ownAccount }),
      `arn:aws:iam::${ownAccount}:instance-profile/app/web-profile`,
    );
    expect(profile).toEqual({
      arn: `arn:aws:iam::${ownAccount}:instance-profile/app/web-profile`,
      name: 'web-profile',
      roleArns: [web.arn],
    });
    expect(world.aws.calls('GetInstanceProfile').map((entry) => [entry.service, entry.region])).toEqual([
      ['iam', 'us-east-1'],
    ]);
  });

  it('answers undefined for a missing instance profile and refuses an ARN of another kind', async () => {
    const provider = newProvider();
    expect(
      await provider.getInstanceProfile(world.scope(), `arn:aws:iam::${ownAccount}:instance-profile/none`),
    ).toBeUndefined();
    await expect(provider.getInstanceProfile(world.scope(), `arn:aws:iam::${ownAccount}:role/web`)).rejects.toThrow(
      InvalidRequest,
    );
  });

  it('resolves users, roles and assumed roles to their unique ids', async () => {
    const alice = world.aws.createUser({ accountId: ownAccount, userName: 'alice', path: '/staff/' });
    const web = world.aws.createRole({ accountId: ownAccount, roleName: 'web' });
    const provider = newProvider();
    expect(await provider.getPrincipal(world.scope(), alice.arn)).toEqual({
      arn: alice.arn,
      uniqueId: alice.userId,
      type: 'user',
    });
    expect(await provider.getPrincipal(world.scope(), web.arn)).toEqual({
      arn: web.arn,
      uniqueId: web.roleId,
      type: 'role',
    });
    const assumed = `arn:aws:sts::${ownAccount}:assumed-role/web/i-0123456789abcdef0`;
    expect(await provider.getPrincipal(world.scope(), assumed)).toEqual({
      arn: web.arn,
      uniqueId: web.roleId,
      type: 'role',
    });
    expect(world.aws.requests.filter((entry) => entry.service === 'iam').map((entry) => entry.action)).toEqual([
      'GetUser',
      'GetRole',
      'GetRole',
    ]);
  });

  it('answers undefined for a principal that does not exist (NoSuchEntity)', async () => {
    const provider = newProvider();
    expect(await provider.getPrincipal(world.scope(), `arn:aws:iam::${ownAccount}:user/ghost`)).toBeUndefined();
    expect(await provider.getPrincipal(world.scope(), `arn:aws:iam::${ownAccount}:role/ghost`)).toBeUndefined();
  });

  it('refuses ARNs that name no user or role, or disagree with the scope account', async () => {
    const provider = newProvider();
    for (const arn of [
      'arn:aws:iam::012345678901:group/ops',
      'arn:aws:iam::012345678901:root',
      'not-an-arn',
      'arn:aws:s3:::bucket/x',
    ]) {
      await expect(provider.getPrincipal(world.scope(), arn)).rejects.toThrow(InvalidRequest);
    }
    await expect(
      provider.getPrincipal(world.scope({ accountId: '999999999999' }), `arn:aws:iam::${ownAccount}:user/alice`),
    ).rejects.toThrow(InvalidRequest);
    expect(world.aws.requests).toEqual([]);
  });

  it('signs IAM for cn-north-1 and us-gov-west-1 when the ARN is in aws-cn or aws-us-gov', async () => {
    for (const [partition, region] of [
      ['aws-cn', 'cn-north-1'],
      ['aws-us-gov', 'us-gov-west-1'],
    ] as const) {
      const accountId = partition === 'aws-cn' ? '100000000001' : '100000000002';
      const admin = world.aws.createUser({ accountId, userName: 'admin', partition });
      const key = world.aws.createAccessKey(accountId, 'admin');
      const scoped = settings({ ...world.settings, accessKey: key.accessKeyId, secretKey: key.secretAccessKey });
      const found = await newProvider().getPrincipal({ settings: scoped }, admin.arn);
      expect(found?.uniqueId).toBe(admin.userId);
      expect(world.aws.calls('GetUser').at(-1)?.region).toBe(region);
    }
  });
});

describe('AwsCloudProvider root rotation calls', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(() => world.aws.stop());

  it('finds the current user, creates a second key, deletes the old one; the old key then stops working', async () => {
    const provider = newProvider();
    const scope = world.scope();
    const me = await provider.getCurrentUser(scope);
    expect(me).toEqual({ userName: 'strongroom', arn: world.user.arn, userId: world.user.userId });
    expect(await provider.listAccessKeys(scope, me.userName)).toEqual([world.key.accessKeyId]);

    const created = await provider.createAccessKey(scope, me.userName);
    expect(created.userName).toBe('strongroom');
    expect(created.accessKeyId).toMatch(/^AKIA/);
    expect(created.secretAccessKey.length).toBeGreaterThan(20);
    expect((await provider.listAccessKeys(scope, me.userName)).sort()).toEqual(
      [world.key.accessKeyId, created.accessKeyId].sort(),
    );

    const rotated = {
      settings: { ...world.settings, accessKey: created.accessKeyId, secretKey: created.secretAccessKey },
    };
    await provider.deleteAccessKey(rotated, me.userName, world.key.accessKeyId);
    expect(await provider.listAccessKeys(rotated, me.userName)).toEqual([created.accessKeyId]);
    await expect(provider.getCurrentUser(scope)).rejects.toThrow(/InvalidClientTokenId/);
    expect(world.aws.calls('GetUser').every((entry) => entry.region === 'us-east-1')).toBe(true);
  });

  it('follows ListAccessKeys pages until IsTruncated is false', async () => {
    const bodies: string[] = [];
    const pages = [
      '<IsTruncated>true</IsTruncated><Marker>m1</Marker><AccessKeyMetadata><member><AccessKeyId>AKIA1</AccessKeyId></member></AccessKeyMetadata>',
      '<IsTruncated>false</IsTruncated><AccessKeyMetadata><member><AccessKeyId>AKIA2</AccessKeyId></member></AccessKeyMetadata>',
    ];
    const paged: typeof fetch = async (_input, init) => {
      bodies.push(String(init?.body));
      const result = pages[bodies.length - 1] ?? '';
      return new Response(
        `<ListAccessKeysResponse><ListAccessKeysResult>${result}</ListAccessKeysResult></ListAccessKeysResponse>`,
      );
    };
    expect(await newProvider({ fetch: paged }).listAccessKeys(world.scope(), 'strongroom')).toEqual(['AKIA1', 'AKIA2']);
    expect(bodies[1]).toContain('Marker=m1');
  });

  it('reports the two-key limit and a missing key as CloudUnavailable with the AWS code', async () => {
    const provider = newProvider();
    const scope = world.scope();
    await provider.createAccessKey(scope, 'strongroom');
    await expect(provider.createAccessKey(scope, 'strongroom')).rejects.toThrow(
      'iam CreateAccessKey failed: LimitExceeded: Cannot exceed quota for AccessKeysPerUser: 2 (HTTP 409)',
    );
    const missing = provider.deleteAccessKey(scope, 'strongroom', 'AKIANOTAKEY000000000');
    await expect(missing).rejects.toThrow(CloudUnavailable);
    await expect(missing).rejects.toThrow(/NoSuchEntity/);
  });
});
