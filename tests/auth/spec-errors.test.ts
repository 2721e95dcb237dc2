import { describe, expect, it } from 'vitest';
import { adminHarness, dataOf, EC2_ROLE } from './admin-harness.js';

// Each error rule of the auth method's administration endpoints (docs/auth.md), through handle().
describe('spec Errors table (administration)', () => {
  it('a constraint the role auth_type and inferencing do not check: configuration refused', async () => {
    const h = adminHarness();
    const refused = [
      { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*', bound_vpc_id: 'vpc-1' },
      {
        auth_type: 'iam',
        inferred_entity_type: 'ec2_instance',
        inferred_aws_region: 'us-east-1',
        bound_region: 'us-east-1',
      },
      { auth_type: 'ec2', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*' },
    ];
    for (const body of refused) expect((await h.write('role/r', body)).status, JSON.stringify(body)).toBe(400);
    expect((await h.read('role/r')).status).toBe(404);
  });

  it('role_tag on an iam role: refused', async () => {
    const h = adminHarness();
    const response = await h.write('role/r', {
      bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*',
      role_tag: 'VaultRole',
    });
    expect(response.status).toBe(400);
  });

  it('allow_instance_migration and disallow_reauthentication both set: refused, on roles and on role tags', async () => {
    const h = adminHarness();
    expect(
      (await h.write('role/r', { ...EC2_ROLE, allow_instance_migration: true, disallow_reauthentication: true }))
        .status,
    ).toBe(400);
    await h.write('role/r', { ...EC2_ROLE, role_tag: 'VaultRole' });
    expect(
      (await h.write('role/r/tag', { allow_instance_migration: true, disallow_reauthentication: true })).status,
    ).toBe(400);
  });

  it('rotating root credentials when the access key is not the only key: new key generation fails', async () => {
    const h = adminHarness();
    h.cloud.addUserWithKey('ellen', { accessKeyId: 'AKIA1', secretAccessKey: 's1' });
    await h.cloud.createAccessKey({ settings: { accessKey: 'AKIA1', secretKey: 's1' } as never }, 'ellen');
    await h.write('config/client', { access_key: 'AKIA1', secret_key: 's1' });
    const response = await h.write('config/rotate-root');
    expect(response.status).toBe(502);
    expect(dataOf(await h.read('config/client')).access_key).toBe('AKIA1');
  });

  it('enabling resolve_aws_unique_ids when the principal cannot be resolved: enabling fails', async () => {
    const h = adminHarness();
    await h.write('role/r', {
      bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/ghost',
      resolve_aws_unique_ids: false,
    });
    expect((await h.write('role/r', { resolve_aws_unique_ids: true })).status).toBe(400);
    expect(dataOf(await h.read('role/r')).resolve_aws_unique_ids).toBe(false);
  });

  it('changing resolve_aws_unique_ids from true to false: not supported', async () => {
    const h = adminHarness();
    await h.write('role/r', { bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*' });
    expect((await h.write('role/r', { resolve_aws_unique_ids: false })).status).toBe(400);
    expect(dataOf(await h.read('role/r')).resolve_aws_unique_ids).toBe(true);
  });

  it('role tag policies not a subset of the role policies: not allowed', async () => {
    const h = adminHarness();
    await h.write('role/r', { ...EC2_ROLE, role_tag: 'VaultRole', token_policies: 'dev' });
    expect((await h.write('role/r/tag', { policies: 'dev,admin' })).status).toBe(400);
    expect((await h.write('role/r/tag', { policies: 'dev' })).status).toBe(200);
  });
});
