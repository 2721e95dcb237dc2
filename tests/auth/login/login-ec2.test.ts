import { describe, expect, it } from 'vitest';
import { SHA1_DISABLED_MESSAGE } from '../../../src/auth/pkcs7/pkcs7.js';
import { CloudUnavailable } from '../../../src/lib/errors.js';
import { formatTimestamp } from '../../../src/lib/time.js';
import { dataOf } from '../admin-harness.js';
import {
  accessListEntry,
  DEFAULT_TOKEN_FIELDS,
  GO_2016,
  grantOf,
  IID_VERIFY_2018,
  loginHarness,
  refusalOf,
  sampleField,
  SYNTHETIC,
  syntheticPkcs7,
  TELEPORT_2021,
  UUID,
  type LoginHarness,
  type Sample,
} from './login-harness.js';

const HOUR = 3600;
const MOUNT_MAX = 768 * HOUR;

async function roleId(h: LoginHarness, name: string): Promise<string> {
  return dataOf(await h.read(`role/${name}`)).role_id as string;
}

/** The sample's PKCS#7 with one character of the signed document changed (the content, not the signature). */
function tamperedPkcs7(sample: Sample, file: 'pkcs7' | 'rsa2048', from: string, to: string): string {
  const der = Buffer.from(sampleField(sample, file), 'base64');
  const at = der.indexOf(from);
  expect(at).toBeGreaterThan(0);
  der.write(to, at);
  return der.toString('base64');
}

describe('ec2 login with genuine AWS documents', () => {
  it('logs in with the rsa2048 PKCS#7 of a real instance and answers the whole grant', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role('web', {
      auth_type: 'ec2',
      bound_ami_id: TELEPORT_2021.imageId,
      token_policies: 'web,db',
      token_ttl: 600,
      token_max_ttl: 1200,
    });
    const grant = grantOf(await h.login({ role: 'web', pkcs7: sampleField(TELEPORT_2021, 'rsa2048') }));
    const id = await roleId(h, 'web');
    expect(grant.metadata.nonce).toMatch(UUID);
    expect(grant).toEqual({
      policies: ['web', 'db'],
      metadata: {
        account_id: TELEPORT_2021.accountId,
        auth_type: 'ec2',
        role_tag_max_ttl: '0s',
        role: 'web',
        nonce: grant.metadata.nonce,
      },
      alias: { name: id, metadata: { account_id: TELEPORT_2021.accountId, auth_type: 'ec2' } },
      ttl: 600,
      max_ttl: 1200,
      ...DEFAULT_TOKEN_FIELDS,
      internal_data: {
        auth_type: 'ec2',
        instance_id: TELEPORT_2021.instanceId,
        region: 'us-west-2',
        account_id: TELEPORT_2021.accountId,
        role_name: 'web',
        role_id: id,
        role_tag_max_ttl: 0,
        access_list_created: formatTimestamp(h.clock.now()),
      },
    });

    const now = h.clock.now().getTime();
    expect(await accessListEntry(h, TELEPORT_2021.instanceId)).toEqual({
      role: 'web',
      client_nonce: grant.metadata.nonce,
      creation_time: formatTimestamp(now),
      disallow_reauthentication: false,
      pending_time: TELEPORT_2021.pendingTime,
      expiration_time: formatTimestamp(now + MOUNT_MAX * 1000),
      last_updated_time: formatTimestamp(now),
    });
    const [describe] = h.cloud.callsTo('describeInstance');
    expect(describe?.args).toEqual([TELEPORT_2021.instanceId]);
    expect(describe?.scope).toMatchObject({ region: 'us-west-2', accountId: TELEPORT_2021.accountId });
  });

  it('accepts the 2018 rsa2048 PKCS#7 and the identity document with its detached signature', async () => {
    const h = loginHarness();
    h.seedSample(IID_VERIFY_2018);
    await h.role('web', { auth_type: 'ec2', bound_account_id: IID_VERIFY_2018.accountId });
    const first = grantOf(await h.login({ role: 'web', pkcs7: sampleField(IID_VERIFY_2018, 'rsa2048') }));
    const again = await h.login({
      role: 'web',
      identity: sampleField(IID_VERIFY_2018, 'document'),
      signature: sampleField(IID_VERIFY_2018, 'signature'),
      nonce: first.metadata.nonce,
    });
    expect(grantOf(again).metadata).toEqual({
      account_id: IID_VERIFY_2018.accountId,
      auth_type: 'ec2',
      role_tag_max_ttl: '0s',
      role: 'web',
    });
  });

  it('refuses the DSA-SHA1 pkcs7 document by default, naming the rsa2048 document, before looking anything up', async () => {
    const h = loginHarness();
    h.seedSample(IID_VERIFY_2018);
    await h.role('web', { auth_type: 'ec2', bound_account_id: IID_VERIFY_2018.accountId });
    const response = await h.login({ role: 'web', pkcs7: sampleField(IID_VERIFY_2018, 'pkcs7') });
    expect(refusalOf(response)).toEqual([400, SHA1_DISABLED_MESSAGE]);
    expect(SHA1_DISABLED_MESSAGE).toContain('rsa2048');
    expect(h.cloud.calls).toEqual([]);
  });

  it('accepts DSA-SHA1 documents with allowSha1Signatures (2016 and 2018 samples)', async () => {
    for (const sample of [GO_2016, IID_VERIFY_2018]) {
      const h = loginHarness({ allowSha1Signatures: true });
      h.seedSample(sample);
      await h.role('web', { auth_type: 'ec2', bound_ami_id: sample.imageId });
      const grant = grantOf(await h.login({ role: 'web', pkcs7: sampleField(sample, 'pkcs7') }));
      expect(grant.internal_data).toMatchObject({
        instance_id: sample.instanceId,
        region: sample.region,
        account_id: sample.accountId,
      });
    }
  });

  it('refuses tampered documents with 403 and never reaches the cloud', async () => {
    const h = loginHarness({ allowSha1Signatures: true });
    h.seedSample(TELEPORT_2021);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId });
    const digest = 'failed to verify the signature: the message digest does not match the content';
    const forged = tamperedPkcs7(TELEPORT_2021, 'rsa2048', TELEPORT_2021.accountId, '111111111111');
    expect(refusalOf(await h.login({ role: 'web', pkcs7: forged }))).toEqual([403, digest]);
    const forgedDsa = tamperedPkcs7(GO_2016, 'pkcs7', GO_2016.instanceId, 'i-f79fe56d');
    expect(refusalOf(await h.login({ role: 'web', pkcs7: forgedDsa }))).toEqual([403, digest]);

    const document = sampleField(IID_VERIFY_2018, 'document');
    const edited = Buffer.from(
      Buffer.from(document, 'base64').toString().replace(IID_VERIFY_2018.accountId, TELEPORT_2021.accountId),
    );
    const identity = await h.login({
      role: 'web',
      identity: edited.toString('base64'),
      signature: sampleField(IID_VERIFY_2018, 'signature'),
    });
    expect(refusalOf(identity)).toEqual([
      403,
      'instance identity verification using SHA256 RSA signature is unsuccessful',
    ]);
    // A genuine signature of another document.
    const swapped = await h.login({
      role: 'web',
      identity: sampleField(TELEPORT_2021, 'document'),
      signature: sampleField(IID_VERIFY_2018, 'signature'),
    });
    expect(refusalOf(swapped)[0]).toBe(403);

    expect(refusalOf(await h.login({ role: 'web', pkcs7: 'bm90IGEgcGtjczc=' }))[0]).toBe(400);
    expect(refusalOf(await h.login({ role: 'web', identity: '%%%', signature: 'abcd' }))).toEqual([
      400,
      'failed to base64 decode the instance identity document',
    ]);
    expect(h.cloud.calls).toEqual([]);
    expect(await accessListEntry(h, TELEPORT_2021.instanceId)).toBeUndefined();
  });

  it('tells an unauthenticated caller nothing about which roles exist', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId });
    const forged = tamperedPkcs7(TELEPORT_2021, 'rsa2048', TELEPORT_2021.instanceId, 'i-078517ca8a70a1ddf');
    const existing = await h.login({ role: 'web', pkcs7: forged });
    const missing = await h.login({ role: 'no-such-role', pkcs7: forged });
    const defaulted = await h.login({ pkcs7: forged });
    expect(existing.status).toBe(403);
    expect(missing).toEqual(existing);
    expect(defaulted).toEqual(existing);
    expect(h.cloud.calls).toEqual([]);
    // Authenticated, the caller may learn that the role is missing.
    expect(refusalOf(await h.login({ role: 'no-such-role', pkcs7: sampleField(TELEPORT_2021, 'rsa2048') }))).toEqual([
      400,
      'entry for role "no-such-role" not found',
    ]);
  });
});

describe('ec2 login dispatch and role resolution', () => {
  it('chooses the login type by the fields supplied, with Vault messages', async () => {
    const h = loginHarness();
    const cases: [Record<string, unknown>, string][] = [
      [{}, "didn't supply required authentication values"],
      [{ role: 'web', nonce: 'x' }, "didn't supply required authentication values"],
      [{ pkcs7: 'x', iam_request_url: 'x' }, 'supplied auth values for both ec2 and iam auth types'],
      [{ identity: 'x' }, 'supplied some of the auth values for the ec2 auth type but not all'],
      [{ signature: 'x' }, 'supplied some of the auth values for the ec2 auth type but not all'],
      [
        { iam_http_request_method: 'POST', iam_request_url: 'x' },
        'supplied some of the auth values for the iam auth type but not all',
      ],
      [
        { pkcs7: '' },
        'either pkcs7 or a tuple containing the instance identity document and its SHA256 RSA signature needs to be provided',
      ],
      [
        { pkcs7: 'x', identity: 'y', signature: 'z' },
        'both pkcs7 and a tuple containing the instance identity document and its SHA256 RSA signature is supplied; provide only one',
      ],
    ];
    for (const [body, message] of cases) expect(refusalOf(await h.login(body))).toEqual([400, message]);
    expect(refusalOf(await h.login({ pkcs7: 42 }))[0]).toBe(400);
    expect((await h.call('GET', 'login')).status).toBe(405);
    expect(h.cloud.calls).toEqual([]);
  });

  it('needs no capability: authorize is never asked', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId });
    const asked: unknown[] = [];
    const response = await h.login(
      { role: 'web', pkcs7: sampleField(TELEPORT_2021, 'rsa2048') },
      { authorize: (check) => (asked.push(check), false) },
    );
    expect(response.status).toBe(200);
    expect(asked).toEqual([]);
  });

  it('defaults the role to the one named after the document AMI, and finds roles in any casing', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role(TELEPORT_2021.imageId, {
      auth_type: 'ec2',
      bound_ami_id: TELEPORT_2021.imageId,
      token_policies: 'by-ami',
    });
    const grant = grantOf(await h.login({ pkcs7: sampleField(TELEPORT_2021, 'rsa2048') }));
    expect(grant.policies).toEqual(['by-ami']);
    expect(grant.metadata.role).toBe(TELEPORT_2021.imageId);

    await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId });
    await h.remove(`identity-accesslist/${TELEPORT_2021.instanceId}`);
    const mixed = grantOf(await h.login({ role: 'WeB', pkcs7: sampleField(TELEPORT_2021, 'rsa2048') }));
    expect(mixed.metadata.role).toBe('WeB');
    expect(mixed.internal_data.role_id).toBe(await roleId(h, 'web'));
  });

  it('refuses a missing role, an iam role and an unusable name with 400 before any cloud call', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role('web-iam', { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*' });
    const pkcs7 = sampleField(TELEPORT_2021, 'rsa2048');
    expect(refusalOf(await h.login({ pkcs7 }))).toEqual([400, `entry for role "${TELEPORT_2021.imageId}" not found`]);
    expect(refusalOf(await h.login({ role: 'web-iam', pkcs7 }))).toEqual([
      400,
      'auth method ec2 not allowed for role web-iam',
    ]);
    expect(refusalOf(await h.login({ role: '../../config/client', pkcs7 }))).toEqual([
      400,
      'entry for role "../../config/client" not found',
    ]);
    expect(h.cloud.calls).toEqual([]);
  });

  it('admits only callers within token_bound_cidrs (403 otherwise) and binds the grant to them', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role('web', {
      auth_type: 'ec2',
      bound_ami_id: TELEPORT_2021.imageId,
      token_bound_cidrs: '10.0.0.0/8,192.168.1.7',
    });
    const pkcs7 = sampleField(TELEPORT_2021, 'rsa2048');
    const denied = "permission denied: the client address is not within the role's token_bound_cidrs";
    expect(refusalOf(await h.login({ role: 'web', pkcs7 }))).toEqual([403, denied]);
    expect(refusalOf(await h.login({ role: 'web', pkcs7 }, { remoteAddress: '192.168.1.8' }))).toEqual([403, denied]);
    expect(refusalOf(await h.login({ role: 'web', pkcs7 }, { remoteAddress: 'not-an-ip' }))).toEqual([403, denied]);
    expect(h.cloud.calls).toEqual([]);
    const grant = grantOf(await h.login({ role: 'web', pkcs7 }, { remoteAddress: '10.20.30.40' }));
    expect(grant.bound_cidrs).toEqual(['10.0.0.0/8', '192.168.1.7']);
  });
});

describe('ec2 login: the instance', () => {
  async function prepared(extra: Parameters<LoginHarness['addInstance']>[1] = {}) {
    const h = loginHarness();
    await h.trustTestSigner();
    h.addInstance(SYNTHETIC, extra);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId });
    return { h, pkcs7: await syntheticPkcs7() };
  }
  const prefix = `failed to verify instance ID "${SYNTHETIC.instanceId}"`;

  it('refuses an instance that is not running, or not found, with 403 and stores nothing', async () => {
    for (const state of ['stopped', 'pending', 'terminated']) {
      const { h, pkcs7 } = await prepared({ state });
      expect(refusalOf(await h.login({ role: 'web', pkcs7 }))).toEqual([
        403,
        `${prefix}: instance is not in 'running' state`,
      ]);
      expect(await accessListEntry(h, SYNTHETIC.instanceId)).toBeUndefined();
    }
    const { h } = await prepared();
    const other = await syntheticPkcs7({ instanceId: 'i-00000000000000000' });
    expect(refusalOf(await h.login({ role: 'web', pkcs7: other }))).toEqual([
      403,
      'failed to verify instance ID "i-00000000000000000": no instance details found in reservations',
    ]);
  });

  it('answers 502 when the provider fails, keeping a typed error class and hiding an untyped error text', async () => {
    const { h, pkcs7 } = await prepared();
    h.cloud.failOn('describeInstance', new Error('socket hang up at 10.1.1.1 with key AKIA...'), 1);
    expect(refusalOf(await h.login({ role: 'web', pkcs7 }))).toEqual([
      502,
      `${prefix}: the cloud provider call failed`,
    ]);
    h.cloud.failOn('describeInstance', new CloudUnavailable('ec2 DescribeInstances: timed out'), 1);
    expect(refusalOf(await h.login({ role: 'web', pkcs7 }))).toEqual([
      502,
      `${prefix}: ec2 DescribeInstances: timed out`,
    ]);
    // The provider faults still reach onInternalError, with their cause, for the service's logs.
    expect(h.internalErrors).toHaveLength(2);
    expect(grantOf(await h.login({ role: 'web', pkcs7 })).policies).toEqual([]);
  });

  it('acts for a foreign account only through its config/sts role', async () => {
    const h = loginHarness();
    await h.trustTestSigner();
    const foreign = { ...SYNTHETIC, accountId: '210987654321' };
    h.addInstance(foreign);
    await h.role('web', { auth_type: 'ec2', bound_account_id: foreign.accountId });
    const pkcs7 = await syntheticPkcs7(foreign);
    const [status, message] = refusalOf(await h.login({ role: 'web', pkcs7 }));
    expect(status).toBe(403);
    expect(message).toContain('no STS role is configured for account "210987654321"');

    const stsRole = 'arn:aws:iam::210987654321:role/strongroom-reader';
    await h.write('config/sts/210987654321', { sts_role: stsRole, external_id: 'ext' });
    h.cloud.allowStsRole(stsRole);
    expect(grantOf(await h.login({ role: 'web', pkcs7 })).metadata.account_id).toBe('210987654321');
    expect(h.cloud.callsTo('describeInstance').at(-1)?.scope).toMatchObject({
      region: 'us-east-1',
      accountId: '210987654321',
      stsRole: { roleArn: stsRole, externalId: 'ext' },
    });
  });
});

describe('ec2 grant: identity configuration and lifetimes', () => {
  it('names the alias and selects the metadata per config/identity', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId });
    const pkcs7 = sampleField(TELEPORT_2021, 'rsa2048');
    const fresh = async () => {
      await h.remove(`identity-accesslist/${TELEPORT_2021.instanceId}`);
      return grantOf(await h.login({ role: 'web', pkcs7 }));
    };

    await h.write('config/identity', { ec2_alias: 'instance_id', ec2_metadata: 'ami_id,instance_id,region' });
    const selected = await fresh();
    expect(selected.alias).toEqual({
      name: TELEPORT_2021.instanceId,
      metadata: { ami_id: TELEPORT_2021.imageId, instance_id: TELEPORT_2021.instanceId, region: 'us-west-2' },
    });
    expect(Object.keys(selected.metadata).sort()).toEqual([
      'ami_id',
      'instance_id',
      'nonce',
      'region',
      'role',
      'role_tag_max_ttl',
    ]);

    await h.write('config/identity', { ec2_alias: 'image_id', ec2_metadata: [] });
    const bare = await fresh();
    expect(bare.alias).toEqual({ name: TELEPORT_2021.imageId, metadata: {} });
    expect(Object.keys(bare.metadata).sort()).toEqual(['nonce', 'role', 'role_tag_max_ttl']);
  });

  it('takes the token settings from the role and caps the TTLs at the shortest max TTL', async () => {
    const h = loginHarness({ mountMaxTtl: 2 * HOUR });
    h.seedSample(TELEPORT_2021);
    await h.role('web', {
      auth_type: 'ec2',
      bound_ami_id: TELEPORT_2021.imageId,
      token_ttl: '3h',
      token_max_ttl: '5h',
      token_period: '1h',
      token_explicit_max_ttl: '10h',
      token_num_uses: 3,
      token_no_default_policy: true,
      token_type: 'service',
    });
    const grant = grantOf(await h.login({ role: 'web', pkcs7: sampleField(TELEPORT_2021, 'rsa2048') }));
    expect(grant).toMatchObject({
      ttl: 2 * HOUR,
      max_ttl: 2 * HOUR,
      period: HOUR,
      explicit_max_ttl: 10 * HOUR,
      num_uses: 3,
      no_default_policy: true,
      token_type: 'service',
    });
    // The access list outlives every token the login could have produced: the longest max TTL.
    const entry = await accessListEntry(h, TELEPORT_2021.instanceId);
    expect(entry?.expiration_time).toBe(formatTimestamp(h.clock.now().getTime() + 5 * HOUR * 1000));
  });
});
