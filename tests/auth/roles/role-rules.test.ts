import { describe, expect, it } from 'vitest';
import { CloudUnavailable } from '../../../src/lib/errors.js';
import { adminHarness, dataOf, EC2_ROLE, errorOf } from '../admin-harness.js';

const INSTANCE_BINDS: Record<string, string> = {
  bound_account_id: '123456789012',
  bound_ami_id: 'ami-1',
  bound_iam_instance_profile_arn: 'arn:aws:iam::123456789012:instance-profile/p*',
  bound_ec2_instance_id: 'i-1',
  bound_iam_role_arn: 'arn:aws:iam::123456789012:role/r*',
  bound_vpc_id: 'vpc-1',
  bound_subnet_id: 'subnet-1',
};
const WILDCARD_PRINCIPAL = 'arn:aws:iam::123456789012:role/*';
const INFERRING = { auth_type: 'iam', inferred_entity_type: 'ec2_instance', inferred_aws_region: 'us-east-1' };

describe('which constraints a role may configure', () => {
  for (const [field, value] of Object.entries(INSTANCE_BINDS)) {
    it(`${field}: ec2 roles and inferring iam roles, not plain iam roles`, async () => {
      const h = adminHarness();
      expect((await h.write('role/ec2', { auth_type: 'ec2', [field]: value })).status).toBe(204);
      expect(dataOf(await h.read('role/ec2'))[field]).toEqual([value]);
      expect((await h.write('role/inferring', { ...INFERRING, [field]: value })).status).toBe(204);
      expect(
        errorOf(
          await h.write('role/iam', { auth_type: 'iam', bound_iam_principal_arn: WILDCARD_PRINCIPAL, [field]: value }),
        ),
      ).toBe(`specified ${field} but not specifying ec2 auth_type or inferring ec2_instance`);
      expect((await h.read('role/iam')).status).toBe(404);
    });
  }

  it('bound_region: ec2 roles only, inferencing is not enough', async () => {
    const h = adminHarness();
    expect((await h.write('role/ec2', { auth_type: 'ec2', bound_region: 'us-east-1' })).status).toBe(204);
    expect(
      errorOf(await h.write('role/inferring', { ...INFERRING, bound_ami_id: 'ami-1', bound_region: 'us-east-1' })),
    ).toBe('specified bound_region but not specifying ec2 auth_type');
  });

  it('bound_iam_principal_arn: iam roles only; an empty list is no constraint', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('role/ec2', { ...EC2_ROLE, bound_iam_principal_arn: WILDCARD_PRINCIPAL }))).toBe(
      'specified bound_iam_principal_arn but not specifying iam auth_type',
    );
    expect((await h.write('role/ec2', { ...EC2_ROLE, bound_iam_principal_arn: [] })).status).toBe(204);
    expect((await h.write('role/iam', { bound_iam_principal_arn: WILDCARD_PRINCIPAL })).status).toBe(204);
  });

  it('needs at least one constraint; an inferred entity type alone is none', async () => {
    const h = adminHarness();
    const message = 'at least one bound parameter should be specified on the role';
    expect(errorOf(await h.write('role/a', { auth_type: 'ec2' }))).toBe(message);
    expect(errorOf(await h.write('role/a', {}))).toBe(message);
    expect(errorOf(await h.write('role/a', INFERRING))).toBe(message);
    expect(errorOf(await h.write('role/a', { ...EC2_ROLE, bound_ami_id: '' }))).toBe(message);
    await h.write('role/a', EC2_ROLE);
    expect(errorOf(await h.write('role/a', { bound_ami_id: [] }))).toBe(message);
    expect(dataOf(await h.read('role/a')).bound_ami_id).toEqual(['ami-12345678']);
  });
});

describe('auth_type and inferencing', () => {
  it('accepts ec2 or iam on create and never changes it', async () => {
    const h = adminHarness();
    for (const auth_type of ['ec2,iam', 'ec2,invalid', 'EC2', 'other']) {
      expect(errorOf(await h.write('role/a', { ...EC2_ROLE, auth_type }))).toBe(`unrecognized auth_type: ${auth_type}`);
    }
    await h.write('role/a', EC2_ROLE);
    expect(errorOf(await h.write('role/a', { auth_type: 'iam' }))).toBe('changing auth_type on a role is not allowed');
    expect((await h.write('role/a', { auth_type: 'ec2' })).status).toBe(204);
  });

  it('checks the inferencing fields', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('role/a', { ...INFERRING, inferred_entity_type: 'lambda', bound_ami_id: 'x' }))).toBe(
      'specified invalid inferred_entity_type: lambda',
    );
    expect(errorOf(await h.write('role/a', { ...INFERRING, inferred_aws_region: '', bound_ami_id: 'x' }))).toBe(
      'specified inferred_entity_type but not inferred_aws_region',
    );
    expect(
      errorOf(
        await h.write('role/a', {
          auth_type: 'iam',
          inferred_aws_region: 'us-east-1',
          bound_iam_principal_arn: WILDCARD_PRINCIPAL,
        }),
      ),
    ).toBe('specified inferred_aws_region but not inferred_entity_type');
    expect(
      errorOf(
        await h.write('role/a', {
          ...EC2_ROLE,
          inferred_entity_type: 'ec2_instance',
          inferred_aws_region: 'us-east-1',
        }),
      ),
    ).toBe("specified inferred_entity_type but didn't allow iam auth_type");
    expect(
      (await h.write('role/a', { ...INFERRING, bound_ami_id: 'ami-1', bound_iam_principal_arn: WILDCARD_PRINCIPAL }))
        .status,
    ).toBe(204);
    expect(dataOf(await h.read('role/a'))).toMatchObject({
      inferred_entity_type: 'ec2_instance',
      inferred_aws_region: 'us-east-1',
    });
    // Turning inferencing off again strands the instance constraints.
    expect(errorOf(await h.write('role/a', { inferred_entity_type: '', inferred_aws_region: '' }))).toBe(
      'specified bound_ami_id but not specifying ec2 auth_type or inferring ec2_instance',
    );
  });
});

describe('ec2-only switches', () => {
  it('refuses allow_instance_migration together with disallow_reauthentication', async () => {
    const h = adminHarness();
    const message = 'cannot specify both disallow_reauthentication=true and allow_instance_migration=true';
    expect(
      errorOf(
        await h.write('role/a', { ...EC2_ROLE, allow_instance_migration: true, disallow_reauthentication: true }),
      ),
    ).toBe(message);
    expect((await h.write('role/a', { ...EC2_ROLE, allow_instance_migration: true })).status).toBe(204);
    expect(errorOf(await h.write('role/a', { disallow_reauthentication: true }))).toBe(message);
    expect((await h.write('role/a', { disallow_reauthentication: true, allow_instance_migration: false })).status).toBe(
      204,
    );
    expect(dataOf(await h.read('role/a'))).toMatchObject({
      disallow_reauthentication: true,
      allow_instance_migration: false,
    });
  });

  it('refuses turning them or role_tag on for iam roles (their default false or "" is harmless)', async () => {
    const h = adminHarness();
    const iam = { bound_iam_principal_arn: WILDCARD_PRINCIPAL };
    expect(errorOf(await h.write('role/a', { ...iam, allow_instance_migration: true }))).toBe(
      'specified allow_instance_migration when not using ec2 auth type',
    );
    expect(errorOf(await h.write('role/a', { ...iam, disallow_reauthentication: true }))).toBe(
      'specified disallow_reauthentication when not using ec2 auth type',
    );
    expect(errorOf(await h.write('role/a', { ...iam, role_tag: 'VaultRole' }))).toBe(
      'tried to enable role_tag when not using ec2 auth method',
    );
    expect(
      (
        await h.write('role/a', {
          ...iam,
          allow_instance_migration: false,
          disallow_reauthentication: false,
          role_tag: '',
        })
      ).status,
    ).toBe(204);
  });

  it('limits the role_tag key to 127 characters', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('role/a', { ...EC2_ROLE, role_tag: 'k'.repeat(128) }))).toBe(
      'length of role tag exceeds the EC2 key limit of 127 characters',
    );
    expect((await h.write('role/a', { ...EC2_ROLE, role_tag: 'k'.repeat(127) })).status).toBe(204);
  });
});

describe('resolve_aws_unique_ids', () => {
  it('resolves every non-wildcard principal ARN to its unique id on create', async () => {
    const h = adminHarness();
    const user = h.cloud.addPrincipal('user', 'alice', { path: 'team' });
    const role = h.cloud.addPrincipal('role', 'builder');
    const arns = [
      'arn:aws:iam::123456789012:user/team/alice',
      'arn:aws:iam::123456789012:role/ops/*',
      'arn:aws:iam::123456789012:role/builder',
    ];
    expect((await h.write('role/a', { bound_iam_principal_arn: arns })).status).toBe(204);
    expect(dataOf(await h.read('role/a'))).toMatchObject({
      bound_iam_principal_arn: arns,
      bound_iam_principal_id: [user.uniqueId, role.uniqueId],
      resolve_aws_unique_ids: true,
    });
    const calls = h.cloud.callsTo('getPrincipal');
    expect(calls.map((call) => call.args[0])).toEqual([arns[0], arns[2]]);
    expect(calls[0]!.scope.accountId).toBe('123456789012');

    // An update that does not touch the ARNs resolves nothing again.
    await h.write('role/a', { token_ttl: 60 });
    expect(h.cloud.callsTo('getPrincipal')).toHaveLength(2);
  });

  it('fails the write, storing nothing, when a principal cannot be resolved', async () => {
    const h = adminHarness();
    const response = await h.write('role/a', { bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/ghost' });
    expect(errorOf(response)).toBe(
      'unable to resolve ARN "arn:aws:iam::123456789012:user/ghost" to internal ID: no such user',
    );
    expect((await h.read('role/a')).status).toBe(404);
    for (const arn of [
      'not-an-arn',
      'arn:aws:iam::123456789012:instance-profile/p',
      'arn:aws:iam::123456789012:root',
    ]) {
      expect(errorOf(await h.write('role/a', { bound_iam_principal_arn: arn }))).toMatch(
        /^unable to resolve ARN .* to internal ID: /,
      );
    }
  });

  it('answers 502 when the provider cannot be asked', async () => {
    const h = adminHarness();
    h.cloud.failOn('getPrincipal', new CloudUnavailable('ServiceUnavailable'));
    const response = await h.write('role/a', { bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/alice' });
    expect(response.status).toBe(502);
    expect(errorOf(response)).toBe(
      'unable to resolve ARN "arn:aws:iam::123456789012:user/alice" to internal ID: ServiceUnavailable',
    );
  });

  it('uses the account STS role for principals of other accounts, and refuses an account it cannot act for', async () => {
    const h = adminHarness();
    const arn = 'arn:aws:iam::222222222222:role/deployer';
    h.cloud.addPrincipal('role', 'deployer', { accountId: '222222222222' });
    expect(errorOf(await h.write('role/a', { bound_iam_principal_arn: arn }))).toContain(
      'no STS role is configured for account "222222222222"',
    );
    h.cloud.allowStsRole('arn:aws:iam::222222222222:role/vault');
    await h.write('config/sts/222222222222', { sts_role: 'arn:aws:iam::222222222222:role/vault' });
    expect((await h.write('role/a', { bound_iam_principal_arn: arn })).status).toBe(204);
    expect(h.cloud.callsTo('getPrincipal').at(-1)!.scope.stsRole).toEqual({
      roleArn: 'arn:aws:iam::222222222222:role/vault',
    });
  });

  it('switching it on later resolves the ARNs; switching it off is refused', async () => {
    const h = adminHarness();
    const user = h.cloud.addPrincipal('user', 'alice');
    const arn = 'arn:aws:iam::123456789012:user/alice';
    await h.write('role/a', { bound_iam_principal_arn: arn, resolve_aws_unique_ids: false });
    expect(dataOf(await h.read('role/a')).bound_iam_principal_id).toEqual([]);
    expect(h.cloud.callsTo('getPrincipal')).toEqual([]);

    h.cloud.removePrincipal('user', 'alice');
    expect(errorOf(await h.write('role/a', { resolve_aws_unique_ids: true }))).toContain('unable to resolve ARN');
    expect(dataOf(await h.read('role/a')).resolve_aws_unique_ids).toBe(false);

    h.cloud.addPrincipal('user', 'alice');
    expect((await h.write('role/a', { resolve_aws_unique_ids: true })).status).toBe(204);
    const resolved = dataOf(await h.read('role/a'));
    expect(resolved.resolve_aws_unique_ids).toBe(true);
    expect(resolved.bound_iam_principal_id).toHaveLength(1);
    expect(resolved.bound_iam_principal_id).not.toEqual([user.uniqueId]);

    expect(errorOf(await h.write('role/a', { resolve_aws_unique_ids: false }))).toBe(
      'changing resolve_aws_unique_ids from true to false is not allowed',
    );
    expect((await h.write('role/a', { resolve_aws_unique_ids: true })).status).toBe(204);
  });

  it('makes no cloud call for a write it refuses, nor for ec2 roles', async () => {
    const h = adminHarness();
    await h.write('role/a', { bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/alice', bound_ami_id: 'ami-1' });
    await h.write('role/b', { ...EC2_ROLE, resolve_aws_unique_ids: true });
    expect(h.cloud.calls).toEqual([]);
  });
});
