import { describe, expect, it } from 'vitest';
import { readIdentityConfig } from '../../../src/auth/config/identity-config.js';
import { AuthContext } from '../../../src/auth/context/auth-context.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness, dataOf, errorOf } from '../admin-harness.js';

describe('config/identity', () => {
  it('reads the defaults when never written', async () => {
    const h = adminHarness();
    expect(dataOf(await h.read('config/identity'))).toEqual({
      iam_alias: 'role_id',
      iam_metadata: ['account_id', 'auth_type'],
      ec2_alias: 'role_id',
      ec2_metadata: ['account_id', 'auth_type'],
    });
  });

  it('accepts every allowed alias, and a partial update keeps the other fields', async () => {
    const h = adminHarness();
    for (const iam_alias of ['unique_id', 'full_arn', 'role_id']) {
      expect((await h.write('config/identity', { iam_alias })).status).toBe(204);
    }
    for (const ec2_alias of ['instance_id', 'image_id']) {
      expect((await h.write('config/identity', { ec2_alias })).status).toBe(204);
    }
    await h.write('config/identity', { iam_alias: 'full_arn' });
    expect(dataOf(await h.read('config/identity'))).toMatchObject({ iam_alias: 'full_arn', ec2_alias: 'image_id' });
  });

  it('refuses aliases outside the allowed sets', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('config/identity', { iam_alias: 'canonical_arn' }))).toBe(
      'iam_alias of "canonical_arn" not in set of allowed values: [role_id unique_id full_arn]',
    );
    expect(errorOf(await h.write('config/identity', { ec2_alias: 'bogus' }))).toBe(
      'ec2_alias of "bogus" not in set of allowed values: [role_id instance_id image_id]',
    );
  });

  it('selects metadata: a list of available fields, [] for none, "default" alone for the defaults', async () => {
    const h = adminHarness();
    await h.write('config/identity', {
      iam_metadata: ['canonical_arn', 'client_user_id', 'account_id'],
      ec2_metadata: 'region,ami_id',
    });
    expect(dataOf(await h.read('config/identity'))).toMatchObject({
      iam_metadata: ['canonical_arn', 'client_user_id', 'account_id'],
      ec2_metadata: ['region', 'ami_id'],
    });
    await h.write('config/identity', { iam_metadata: [], ec2_metadata: '' });
    expect(dataOf(await h.read('config/identity'))).toMatchObject({ iam_metadata: [], ec2_metadata: [] });
    await h.write('config/identity', { iam_metadata: 'default', ec2_metadata: ['default'] });
    expect(dataOf(await h.read('config/identity'))).toMatchObject({
      iam_metadata: ['account_id', 'auth_type'],
      ec2_metadata: ['account_id', 'auth_type'],
    });
  });

  it('refuses default combined with fields, and fields of the other login type', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('config/identity', { iam_metadata: ['default', 'client_arn'] }))).toBe(
      `["default" "client_arn"] contains default - default can't be used in combination with other fields`,
    );
    expect(errorOf(await h.write('config/identity', { ec2_metadata: ['client_arn'] }))).toBe(
      '["client_arn"] contains an unavailable field, please select from ["account_id" "auth_type" "ami_id" "instance_id" "region"]',
    );
    expect((await h.write('config/identity', { iam_metadata: ['instance_id'] })).status).toBe(400);
    expect((await h.write('config/identity', { iam_metadata: 42 })).status).toBe(400);
  });

  it('readIdentityConfig gives login the expanded selection', async () => {
    const context = new AuthContext({ storage: testStorage(), cloud: new FakeCloud() });
    expect(await readIdentityConfig(context)).toEqual({
      iam_alias: 'role_id',
      iam_metadata: ['account_id', 'auth_type'],
      ec2_alias: 'role_id',
      ec2_metadata: ['account_id', 'auth_type'],
    });
  });
});
