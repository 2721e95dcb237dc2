import { beforeAll, describe, expect, it } from 'vitest';
import type { InstanceDescription } from '../../../src/ports/cloud.js';
import { FAKE_ACCOUNT } from '../../support/fake-cloud.js';
import { accessListEntry, grantOf, loginHarness, refusalOf, SYNTHETIC, syntheticPkcs7 } from './login-harness.js';

const PROFILE_ARN = `arn:aws:iam::${FAKE_ACCOUNT}:instance-profile/path/web-profile`;
const ROLE_ARN = `arn:aws:iam::${FAKE_ACCOUNT}:role/path/web-role`;
const INSTANCE: Partial<InstanceDescription> = {
  vpcId: 'vpc-1',
  subnetId: 'subnet-1',
  iamInstanceProfileArn: PROFILE_ARN,
};
const PREFIX = 'Error validating instance';

let pkcs7: string;
beforeAll(async () => {
  pkcs7 = await syntheticPkcs7();
});

/** A fresh engine with the synthetic instance (and its profile) and one ec2 role `web` with `bounds`. */
async function attempt(bounds: Record<string, unknown>, instance: Partial<InstanceDescription> = INSTANCE) {
  const h = loginHarness();
  await h.trustTestSigner();
  h.addInstance(SYNTHETIC, instance);
  h.cloud.addInstanceProfile({ arn: PROFILE_ARN, name: 'web-profile', roleArns: [ROLE_ARN] });
  await h.role('web', { auth_type: 'ec2', ...bounds });
  return { h, response: await h.login({ role: 'web', pkcs7 }) };
}

async function expectAdmitted(bounds: Record<string, unknown>, instance?: Partial<InstanceDescription>): Promise<void> {
  const { response } = await attempt(bounds, instance);
  expect(grantOf(response).internal_data.instance_id, JSON.stringify(bounds)).toBe(SYNTHETIC.instanceId);
}

async function expectRefused(
  bounds: Record<string, unknown>,
  message: string,
  instance?: Partial<InstanceDescription>,
): Promise<void> {
  const { h, response } = await attempt(bounds, instance);
  expect(refusalOf(response), JSON.stringify(bounds)).toEqual([403, message]);
  expect(await accessListEntry(h, SYNTHETIC.instanceId)).toBeUndefined();
}

describe('ec2 bound constraints', () => {
  const cases: [string, string[], string, string][] = [
    [
      'bound_ami_id',
      ['ami-12345678', 'ami-0,ami-12345678'],
      'ami-87654321',
      `${PREFIX}: AMI ID "ami-12345678" does not belong to role "web"`,
    ],
    [
      'bound_account_id',
      [FAKE_ACCOUNT, `111111111111,${FAKE_ACCOUNT}`],
      '111111111111',
      `${PREFIX}: account ID "${FAKE_ACCOUNT}" does not belong to role "web"`,
    ],
    [
      'bound_region',
      ['us-east-1', 'eu-west-1,us-east-1'],
      'eu-west-1',
      'Region "us-east-1" does not satisfy the constraint on role "web"',
    ],
    [
      'bound_vpc_id',
      ['vpc-1', 'vpc-0,vpc-1'],
      'vpc-2',
      `${PREFIX}: VPC ID "vpc-1" does not satisfy the constraint on role "web"`,
    ],
    [
      'bound_subnet_id',
      ['subnet-1'],
      'subnet-2',
      `${PREFIX}: subnet ID "subnet-1" does not satisfy the constraint on role "web"`,
    ],
    [
      'bound_ec2_instance_id',
      [SYNTHETIC.instanceId, `i-1,${SYNTHETIC.instanceId}`],
      'i-0123456789abcdef1',
      `${PREFIX}: instance ID "${SYNTHETIC.instanceId}" does not belong to the role "web"`,
    ],
  ];

  for (const [field, admitted, refused, message] of cases) {
    it(`${field}: admits a listed value and refuses an unlisted one`, async () => {
      for (const value of admitted) await expectAdmitted({ [field]: value });
      await expectRefused({ [field]: refused }, message);
    });
  }

  it('bound_iam_instance_profile_arn: exact or trailing-* prefix; a truncated ARN or a * elsewhere does not match', async () => {
    await expectAdmitted({ bound_iam_instance_profile_arn: PROFILE_ARN });
    await expectAdmitted({ bound_iam_instance_profile_arn: `arn:aws:iam::${FAKE_ACCOUNT}:instance-profile/path/*` });
    await expectAdmitted({
      bound_iam_instance_profile_arn: `arn:aws:iam::${FAKE_ACCOUNT}:instance-profile/path/web-pro*`,
    });
    const message = `${PREFIX}: IAM instance profile ARN "${PROFILE_ARN}" does not satisfy the constraint role "web"`;
    for (const bound of [
      `arn:aws:iam::${FAKE_ACCOUNT}:instance-profile/path/web-pro`,
      `arn:aws:iam::${FAKE_ACCOUNT}:instance-profile/*/web-profile`,
      `arn:aws:iam::${FAKE_ACCOUNT}:instance-profile/other`,
      '*',
    ]) {
      await expectRefused({ bound_iam_instance_profile_arn: bound }, message);
    }
  });

  it("bound_iam_role_arn: the profile's one role, exact or trailing-* prefix, looked up in the instance's account", async () => {
    const { h, response } = await attempt({ bound_iam_role_arn: ROLE_ARN });
    expect(response.status).toBe(200);
    const [lookup] = h.cloud.callsTo('getInstanceProfile');
    expect(lookup?.args).toEqual([PROFILE_ARN]);
    expect(lookup?.scope).toMatchObject({ region: 'us-east-1', accountId: FAKE_ACCOUNT });
    await expectAdmitted({ bound_iam_role_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/path/web*` });
    const message = `${PREFIX}: IAM role ARN "${ROLE_ARN}" does not satisfy the constraint role "web"`;
    await expectRefused({ bound_iam_role_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/path/web-rol` }, message);
    await expectRefused({ bound_iam_role_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/*/web-role` }, message);
  });

  it('bound_iam_role_arn: a missing profile, or one without exactly one role, is an unmet constraint', async () => {
    const missing = `arn:aws:iam::${FAKE_ACCOUNT}:instance-profile/gone`;
    await expectRefused(
      { bound_iam_role_arn: ROLE_ARN },
      `${PREFIX}: IAM instance profile "${missing}" was not found`,
      {
        ...INSTANCE,
        iamInstanceProfileArn: missing,
      },
    );

    const h = loginHarness();
    await h.trustTestSigner();
    const twoRoles = `arn:aws:iam::${FAKE_ACCOUNT}:instance-profile/two`;
    h.addInstance(SYNTHETIC, { iamInstanceProfileArn: twoRoles });
    h.cloud.addInstanceProfile({ arn: twoRoles, name: 'two', roleArns: [ROLE_ARN, `${ROLE_ARN}-2`] });
    await h.role('web', { auth_type: 'ec2', bound_iam_role_arn: ROLE_ARN });
    expect(refusalOf(await h.login({ role: 'web', pkcs7 }))).toEqual([
      403,
      `${PREFIX}: IAM instance profile "${twoRoles}" must hold exactly one role, it holds 2`,
    ]);
  });

  it('bound_iam_role_arn: a failing IAM lookup is 502', async () => {
    const h = loginHarness();
    await h.trustTestSigner();
    h.addInstance(SYNTHETIC, INSTANCE);
    await h.role('web', { auth_type: 'ec2', bound_iam_role_arn: ROLE_ARN });
    h.cloud.failOn('getInstanceProfile', new Error('connection reset'));
    expect(refusalOf(await h.login({ role: 'web', pkcs7 }))).toEqual([
      502,
      'IAM role ARN could not be fetched: the cloud provider call failed',
    ]);
  });

  it('an attribute the instance lacks fails its constraint with 403', async () => {
    const lacking = (label: string) =>
      `${PREFIX}: the instance has no ${label}, so it does not satisfy the constraint on role "web"`;
    await expectRefused({ bound_vpc_id: 'vpc-1' }, lacking('VPC ID'), {});
    await expectRefused({ bound_subnet_id: 'subnet-1' }, lacking('subnet ID'), {});
    await expectRefused({ bound_iam_instance_profile_arn: PROFILE_ARN }, lacking('IAM instance profile'), {});
    await expectRefused({ bound_iam_role_arn: ROLE_ARN }, lacking('IAM instance profile'), {});
  });

  it('checks the described instance, not the document', async () => {
    await expectRefused(
      { bound_ami_id: SYNTHETIC.imageId },
      `${PREFIX}: AMI ID "ami-described" does not belong to role "web"`,
      {
        imageId: 'ami-described',
      },
    );
  });

  it('reports the first failing constraint in Vault order, with every constraint required', async () => {
    const all = {
      bound_ami_id: 'ami-12345678',
      bound_account_id: FAKE_ACCOUNT,
      bound_region: 'us-east-1',
      bound_vpc_id: 'vpc-1',
      bound_subnet_id: 'subnet-1',
      bound_ec2_instance_id: SYNTHETIC.instanceId,
      bound_iam_instance_profile_arn: `${PROFILE_ARN.slice(0, -3)}*`,
      bound_iam_role_arn: ROLE_ARN,
    };
    await expectAdmitted(all);
    await expectRefused(
      { ...all, bound_region: 'eu-west-1', bound_ec2_instance_id: 'i-1' },
      'Region "us-east-1" does not satisfy the constraint on role "web"',
    );
    await expectRefused(
      { ...all, bound_ami_id: 'ami-0', bound_ec2_instance_id: 'i-1' },
      `${PREFIX}: instance ID "${SYNTHETIC.instanceId}" does not belong to the role "web"`,
    );
    await expectRefused(
      { ...all, bound_iam_role_arn: 'arn:aws:iam::1:role/x' },
      `${PREFIX}: IAM role ARN "${ROLE_ARN}" does not satisfy the constraint role "web"`,
    );
  });
});
