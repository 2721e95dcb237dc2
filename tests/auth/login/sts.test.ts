import { describe, expect, it } from 'vitest';
import { resolveCloudScope } from '../../../src/auth/config/cloud-scope.js';
import { AuthContext } from '../../../src/auth/context/auth-context.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness, dataOf, errorOf } from '../admin-harness.js';

describe('config/sts', () => {
  it('creates, reads, updates, lists and deletes per-account roles', async () => {
    const h = adminHarness();
    expect(
      (await h.write('config/sts/111111111111', { sts_role: 'arn:aws:iam::111111111111:role/vault' })).status,
    ).toBe(204);
    expect(
      (
        await h.write('config/sts/222222222222', {
          sts_role: 'arn:aws:iam::222222222222:role/vault',
          external_id: 'fake_id',
        })
      ).status,
    ).toBe(204);
    expect(dataOf(await h.read('config/sts/111111111111'))).toEqual({
      sts_role: 'arn:aws:iam::111111111111:role/vault',
    });
    expect(dataOf(await h.read('config/sts/222222222222'))).toEqual({
      sts_role: 'arn:aws:iam::222222222222:role/vault',
      external_id: 'fake_id',
    });
    expect(dataOf(await h.list('config/sts'))).toEqual({ keys: ['111111111111', '222222222222'] });

    await h.write('config/sts/222222222222', { sts_role: 'arn:aws:iam::222222222222:role/other' });
    expect(dataOf(await h.read('config/sts/222222222222'))).toEqual({
      sts_role: 'arn:aws:iam::222222222222:role/other',
      external_id: 'fake_id',
    });
    await h.write('config/sts/222222222222', { external_id: '' });
    expect(dataOf(await h.read('config/sts/222222222222'))).toEqual({
      sts_role: 'arn:aws:iam::222222222222:role/other',
    });

    expect((await h.remove('config/sts/111111111111')).status).toBe(204);
    expect((await h.remove('config/sts/222222222222')).status).toBe(204);
    expect((await h.read('config/sts/111111111111')).status).toBe(404);
    expect((await h.list('config/sts/')).status).toBe(404);
  });

  it('requires sts_role on create and refuses an empty one', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('config/sts/111111111111', {}))).toBe('missing sts role');
    expect(errorOf(await h.write('config/sts/111111111111', { sts_role: '' }))).toBe('sts role cannot be empty');
    await h.write('config/sts/111111111111', { sts_role: 'arn:aws:iam::111111111111:role/vault' });
    expect(errorOf(await h.write('config/sts/111111111111', { sts_role: ' ' }))).toBe('sts role cannot be empty');
  });

  it('404s on an account id that breaks the name rule', async () => {
    const h = adminHarness();
    expect((await h.write('config/sts/-bad-', { sts_role: 'x' })).status).toBe(404);
  });

  it('builds the cloud scope login uses: client settings, region, account and its STS role', async () => {
    const storage = testStorage();
    const h = adminHarness({ storage });
    await h.write('config/client', {
      access_key: 'AKIA1',
      secret_key: 's',
      sts_endpoint: 'https://sts.example.test',
      max_retries: 2,
    });
    await h.write('config/sts/111111111111', { sts_role: 'arn:aws:iam::111111111111:role/vault', external_id: 'x1' });
    const context = new AuthContext({ storage, cloud: new FakeCloud() });
    expect(await resolveCloudScope(context, { region: 'eu-west-1', accountId: '111111111111' })).toEqual({
      settings: {
        accessKey: 'AKIA1',
        secretKey: 's',
        endpoint: '',
        iamEndpoint: '',
        stsEndpoint: 'https://sts.example.test',
        stsRegion: '',
        maxRetries: 2,
        allowedStsRegions: [],
        instanceCacheSeconds: 0,
      },
      region: 'eu-west-1',
      accountId: '111111111111',
      stsRole: { roleArn: 'arn:aws:iam::111111111111:role/vault', externalId: 'x1' },
    });
    const plain = await resolveCloudScope(context, { region: 'us-east-1', accountId: '999999999999' });
    expect(plain.stsRole).toBeUndefined();
    expect(plain.accountId).toBe('999999999999');
  });
});
