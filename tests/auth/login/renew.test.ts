import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { CloudUnavailable } from '../../../src/lib/errors.js';
import type { AuthGrant, EngineRequest } from '../../../src/core/framework/request.js';
import { formatTimestamp } from '../../../src/lib/time.js';
import { FAKE_ACCOUNT } from '../../support/fake-cloud.js';
import { FaultyStorage } from '../../support/faulty-storage.js';
import { dataOf } from '../admin-harness.js';
import {
  accessListEntry,
  grantOf,
  loginHarness,
  refusalOf,
  SYNTHETIC,
  syntheticPkcs7,
  type LoginHarness,
} from './login-harness.js';

const HOUR = 3600;

async function renewed(h: LoginHarness, grant: AuthGrant): Promise<AuthGrant> {
  return grantOf(await h.engine.renew(grant));
}

describe('renew() of ec2 grants', () => {
  async function ec2Grant(role: Record<string, unknown> = {}, options: Parameters<typeof loginHarness>[0] = {}) {
    const h = loginHarness(options);
    await h.trustTestSigner();
    h.addInstance(SYNTHETIC, { vpcId: 'vpc-1' });
    await h.role('web', {
      auth_type: 'ec2',
      bound_ami_id: SYNTHETIC.imageId,
      token_policies: 'web',
      token_ttl: '1h',
      token_max_ttl: '4h',
      ...role,
    });
    const pkcs7 = await syntheticPkcs7();
    const grant = grantOf(await h.login({ role: 'web', pkcs7 }));
    return { h, grant, pkcs7 };
  }

  it("answers the grant with the role's current lifetimes and moves the access list expiry", async () => {
    const { h, grant } = await ec2Grant();
    const created = await accessListEntry(h, SYNTHETIC.instanceId);
    h.clock.advance(1800);
    await h.role('web', { token_ttl: '2h', token_max_ttl: '3h', token_period: '30m', token_policies: 'other' });
    const renewal = await renewed(h, grant);
    expect(renewal).toEqual({ ...grant, ttl: 2 * HOUR, max_ttl: 3 * HOUR, period: 1800 });
    const now = h.clock.now().getTime();
    expect(await accessListEntry(h, SYNTHETIC.instanceId)).toEqual({
      ...created,
      last_updated_time: formatTimestamp(now),
      expiration_time: formatTimestamp(now + 768 * HOUR * 1000),
    });
    expect(h.cloud.callsTo('describeInstance')).toHaveLength(2);
  });

  it('ends when the instance stops, or no longer meets the role', async () => {
    const { h, grant } = await ec2Grant({ bound_vpc_id: 'vpc-1' });
    h.addInstance(SYNTHETIC, { vpcId: 'vpc-2' });
    expect(refusalOf(await h.engine.renew(grant))).toEqual([
      403,
      'Error validating instance: VPC ID "vpc-2" does not satisfy the constraint on role "web"',
    ]);
    h.addInstance(SYNTHETIC, { vpcId: 'vpc-1', state: 'stopped' });
    expect(refusalOf(await h.engine.renew(grant))).toEqual([
      403,
      `failed to verify instance ID "${SYNTHETIC.instanceId}": instance is not in 'running' state`,
    ]);
  });

  it('ends with the access list entry of the login, even if a later login creates a new one', async () => {
    const { h, grant, pkcs7 } = await ec2Grant();
    const gone = `failed to verify the access list identity entry for instance ID: "${SYNTHETIC.instanceId}"`;
    await h.remove(`identity-accesslist/${SYNTHETIC.instanceId}`);
    expect(refusalOf(await h.engine.renew(grant))).toEqual([403, gone]);
    expect(await accessListEntry(h, SYNTHETIC.instanceId)).toBeUndefined();

    h.clock.advance(60);
    const fresh = grantOf(await h.login({ role: 'web', pkcs7 }));
    expect(refusalOf(await h.engine.renew(grant))).toEqual([403, gone]);
    expect((await h.engine.renew(fresh)).status).toBe(200);
  });

  it('ends when the role is deleted, even if a role of that name is created again', async () => {
    const { h, grant } = await ec2Grant();
    await h.remove('role/web');
    expect(refusalOf(await h.engine.renew(grant))).toEqual([403, 'role entry not found']);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId });
    expect(refusalOf(await h.engine.renew(grant))).toEqual([
      403,
      'role "web" is not the role the grant was issued for',
    ]);
  });

  it("keeps the role tag's max TTL and outlives a deny-listing of the tag", async () => {
    const h = loginHarness();
    await h.trustTestSigner();
    await h.role('web', {
      auth_type: 'ec2',
      bound_ami_id: SYNTHETIC.imageId,
      role_tag: 'VaultRole',
      token_max_ttl: '4h',
    });
    const tag = dataOf(await h.write('role/web/tag', { max_ttl: '1h' })).tag_value as string;
    h.addInstance(SYNTHETIC, { tags: { VaultRole: tag } });
    const grant = grantOf(await h.login({ role: 'web', pkcs7: await syntheticPkcs7() }));
    await h.write(`roletag-denylist/${tag}`);
    expect(
      refusalOf(await h.login({ role: 'web', pkcs7: await syntheticPkcs7(), nonce: grant.metadata.nonce }))[1],
    ).toBe('role tag is deny listed');
    expect((await renewed(h, grant)).max_ttl).toBe(HOUR);
  });

  it('dispatches on internal_data, so edited metadata changes nothing', async () => {
    const { h, grant } = await ec2Grant();
    const edited = { ...grant, metadata: { ...grant.metadata, auth_type: 'iam', instance_id: 'i-other' } };
    expect((await renewed(h, edited)).metadata).toEqual(edited.metadata);
  });

  it('answers 502 when the provider cannot be asked, 500 for a storage fault (reported to onInternalError)', async () => {
    const { h, grant } = await ec2Grant();
    h.cloud.failOn('describeInstance', new CloudUnavailable('ec2 DescribeInstances: timed out'), 1);
    expect(refusalOf(await h.engine.renew(grant))).toEqual([
      502,
      `failed to verify instance ID "${SYNTHETIC.instanceId}": ec2 DescribeInstances: timed out`,
    ]);
    expect(h.internalErrors).toHaveLength(1);

    const storage = new FaultyStorage(new MemoryStorage());
    const reports: [unknown, EngineRequest][] = [];
    const faulty = await ec2Grant({}, { storage, onInternalError: (error, request) => reports.push([error, request]) });
    storage.arm(1);
    expect(refusalOf(await faulty.h.engine.renew(faulty.grant))).toEqual([500, 'storage read failed']);
    expect(reports.map(([, request]) => request)).toEqual([{ method: 'POST', path: 'renew' }]);
  });
});

describe('renew() of iam grants', () => {
  async function iamGrant(role: Record<string, unknown> = {}) {
    const h = loginHarness();
    const principal = h.cloud.addPrincipal('role', 'app');
    h.cloud.stsCaller = {
      arn: `arn:aws:sts::${FAKE_ACCOUNT}:assumed-role/app/${SYNTHETIC.instanceId}`,
      userId: `${principal.uniqueId}:x`,
      accountId: FAKE_ACCOUNT,
    };
    h.cloud.addInstance({ instanceId: SYNTHETIC.instanceId, imageId: SYNTHETIC.imageId }, { region: 'eu-west-1' });
    await h.role('web', {
      auth_type: 'iam',
      bound_iam_principal_arn: principal.arn,
      token_ttl: '1h',
      token_max_ttl: '2h',
      ...role,
    });
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const grant = grantOf(
      await h.login({
        role: 'web',
        iam_http_request_method: 'POST',
        iam_request_url: b64('https://sts.amazonaws.com/'),
        iam_request_body: b64('Action=GetCallerIdentity&Version=2011-06-15'),
        iam_request_headers: {
          Authorization:
            'AWS4-HMAC-SHA256 Credential=AKIA/20260101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=00',
        },
      }),
    );
    return { h, grant, principal };
  }

  it("answers the grant with the role's current lifetimes, capped by the mount maximum", async () => {
    const { h, grant } = await iamGrant();
    expect(grant.max_ttl).toBe(2 * HOUR);
    await h.role('web', { token_ttl: '3h', token_max_ttl: '1000h', token_period: '1h' });
    expect(await renewed(h, grant)).toEqual({ ...grant, ttl: 3 * HOUR, max_ttl: 768 * HOUR, period: HOUR });
    expect(h.cloud.callsTo('forwardCallerIdentity')).toHaveLength(1);
  });

  it('ends when the role goes, or the principal is no longer bound (by unique id)', async () => {
    const { h, grant } = await iamGrant();
    h.cloud.removePrincipal('role', 'app');
    const again = h.cloud.addPrincipal('role', 'app');
    const unbound = `role "web" no longer bound to ARN "arn:aws:iam::${FAKE_ACCOUNT}:role/app"`;
    await h.role('web', { bound_iam_principal_arn: again.arn });
    expect(refusalOf(await h.engine.renew(grant))).toEqual([403, unbound]);

    const forged = {
      ...grant,
      metadata: { ...grant.metadata, canonical_arn: again.arn },
      internal_data: { ...grant.internal_data },
    };
    expect(refusalOf(await h.engine.renew(forged))).toEqual([403, unbound]);

    await h.remove('role/web');
    expect(refusalOf(await h.engine.renew(grant))).toEqual([403, 'role entry not found']);
  });

  it('re-checks a wildcard binding through IAM, answering 502 when IAM cannot be asked', async () => {
    const { h, grant } = await iamGrant({ bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/*` });
    expect((await h.engine.renew(grant)).status).toBe(200);
    h.cloud.failOn('getPrincipal', new Error('down'));
    expect(refusalOf(await h.engine.renew(grant))[0]).toBe(502);
  });

  it('asks IAM at every renewal, even with the full ARN just kept; a role recreated under its name ends the grant at once', async () => {
    const { h, grant } = await iamGrant({ bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/*` });
    expect(h.cloud.callsTo('getPrincipal')).toHaveLength(1);
    expect((await h.engine.renew(grant)).status).toBe(200);
    expect(h.cloud.callsTo('getPrincipal')).toHaveLength(2);
    h.cloud.removePrincipal('role', 'app');
    h.cloud.addPrincipal('role', 'app');
    expect(refusalOf(await h.engine.renew(grant))[0]).toBe(403);
    // The renewal dropped the kept answer, so a login within the minute is refused too.
    const body = {
      role: 'web',
      iam_http_request_method: 'POST',
      iam_request_url: Buffer.from('https://sts.amazonaws.com/').toString('base64'),
      iam_request_body: Buffer.from('Action=GetCallerIdentity&Version=2011-06-15').toString('base64'),
      iam_request_headers: {
        Authorization:
          'AWS4-HMAC-SHA256 Credential=AKIA/20260101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=00',
      },
    };
    expect(refusalOf(await h.login(body))[0]).toBe(403);
  });

  it('re-checks the inferred instance; a grant from before the role inferred instances ends', async () => {
    const inferring = {
      inferred_entity_type: 'ec2_instance',
      inferred_aws_region: 'eu-west-1',
      bound_ami_id: SYNTHETIC.imageId,
    };
    const { h, grant } = await iamGrant(inferring);
    expect((await h.engine.renew(grant)).status).toBe(200);
    h.cloud.addInstance(
      { instanceId: SYNTHETIC.instanceId, imageId: SYNTHETIC.imageId, state: 'stopping' },
      { region: 'eu-west-1' },
    );
    expect(refusalOf(await h.engine.renew(grant))).toEqual([
      403,
      `failed to verify ${SYNTHETIC.instanceId} as a valid EC2 instance in region eu-west-1: instance is not in 'running' state`,
    ]);
    h.cloud.failOn('describeInstance', new Error('down'));
    expect(refusalOf(await h.engine.renew(grant))[0]).toBe(502);

    const before = await iamGrant();
    await before.h.role('web', inferring);
    expect(refusalOf(await before.h.engine.renew(before.grant))).toEqual([
      403,
      'the grant was issued before the role inferred ec2 instances; log in again',
    ]);
  });
});

describe('renew() of grants this engine did not issue', () => {
  it('answers 400 for a grant without valid internal data', async () => {
    const h = loginHarness();
    const message = 'the grant was not issued by this auth method: its internal_data is missing or malformed';
    const base = { policies: [], metadata: {}, internal_data: {} } as unknown as AuthGrant;
    for (const grant of [
      base,
      { ...base, internal_data: { auth_type: 'gcp' } },
      { ...base, internal_data: { auth_type: 'ec2', instance_id: 'i-1' } },
      null as unknown as AuthGrant,
    ]) {
      expect(refusalOf(await h.engine.renew(grant))).toEqual([400, message]);
    }
    expect(h.internalErrors).toEqual([]);
  });
});
