import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { AuthEngine } from '../../../src/auth/auth-engine.js';
import { FaultyStorage, withoutCompareAndPut } from '../../support/faulty-storage.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness, dataOf, EC2_ROLE, errorOf, IAM_ROLE, warningsOf } from '../admin-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('role CRUD', () => {
  it('creates an ec2 role and reads every field (Vault CRUD scenario)', async () => {
    const h = adminHarness();
    const response = await h.write('role/testrole', {
      auth_type: 'ec2',
      policies: 'testpolicy1,testpolicy2',
      max_ttl: '20m',
      ttl: '10m',
      period: '1m',
      bound_ami_id: 'testamiid',
      bound_account_id: 'testaccountid',
      bound_region: 'testregion',
      bound_iam_role_arn: 'arn:aws:iam::123456789012:role/MyRole',
      bound_iam_instance_profile_arn: 'arn:aws:iam::123456789012:instance-profile/MyInstancePro*',
      bound_subnet_id: 'testsubnetid',
      bound_vpc_id: 'testvpcid',
      bound_ec2_instance_id: 'i-12345678901234567,i-76543210987654321',
      role_tag: 'testtag',
      resolve_aws_unique_ids: false,
      allow_instance_migration: true,
      disallow_reauthentication: false,
      hmac_key: 'testhmackey',
    });
    // hmac_key is no field of the role: ignored, with Vault's warning (which Vault itself drops from a 204).
    expect(response).toEqual({
      status: 200,
      body: { data: null, warnings: ['Endpoint ignored these unrecognized parameters: [hmac_key]'] },
    });
    const data = dataOf(await h.read('role/testrole'));
    expect(data.role_id).toMatch(UUID);
    expect(data).toEqual({
      auth_type: 'ec2',
      bound_ami_id: ['testamiid'],
      bound_account_id: ['testaccountid'],
      bound_region: ['testregion'],
      bound_ec2_instance_id: ['i-12345678901234567', 'i-76543210987654321'],
      bound_iam_principal_arn: [],
      bound_iam_principal_id: [],
      bound_iam_role_arn: ['arn:aws:iam::123456789012:role/MyRole'],
      bound_iam_instance_profile_arn: ['arn:aws:iam::123456789012:instance-profile/MyInstancePro*'],
      bound_subnet_id: ['testsubnetid'],
      bound_vpc_id: ['testvpcid'],
      inferred_entity_type: '',
      inferred_aws_region: '',
      resolve_aws_unique_ids: false,
      role_id: data.role_id,
      role_tag: 'testtag',
      allow_instance_migration: true,
      disallow_reauthentication: false,
      ttl: 600,
      token_ttl: 600,
      max_ttl: 1200,
      token_max_ttl: 1200,
      token_explicit_max_ttl: 0,
      policies: ['testpolicy1', 'testpolicy2'],
      token_policies: ['testpolicy1', 'testpolicy2'],
      period: 60,
      token_period: 60,
      token_bound_cidrs: [],
      token_no_default_policy: false,
      token_num_uses: 0,
      token_type: 'default',
    });

    await h.write('role/testrole', { bound_vpc_id: 'newvpcid' });
    const updated = dataOf(await h.read('role/testrole'));
    expect(updated).toEqual({ ...data, bound_vpc_id: ['newvpcid'] });

    // A fresh engine over the same storage sees the same role.
    const again = new AuthEngine({ storage: h.storage, cloud: h.cloud, env: {} });
    expect(dataOf(await again.handle({ method: 'GET', path: 'role/testrole' }))).toEqual(updated);

    expect((await h.remove('role/testrole')).status).toBe(204);
    expect((await h.read('role/testrole')).status).toBe(404);
    expect((await h.remove('role/testrole')).status).toBe(204);
  });

  it('applies the defaults: auth_type iam, resolution on, token fields zero', async () => {
    const h = adminHarness();
    await h.write('role/web', { bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*' });
    expect(dataOf(await h.read('role/web'))).toMatchObject({
      auth_type: 'iam',
      resolve_aws_unique_ids: true,
      allow_instance_migration: false,
      disallow_reauthentication: false,
      role_tag: '',
      token_ttl: 0,
      token_max_ttl: 0,
      token_period: 0,
      token_policies: [],
      token_type: 'default',
    });
    const data = dataOf(await h.read('role/web'));
    expect(data).not.toHaveProperty('policies');
    expect(data).not.toHaveProperty('ttl');
  });

  it('treats role names case-insensitively and lists them lower-cased under role/ and roles/', async () => {
    const h = adminHarness();
    await h.write('role/MyRole', EC2_ROLE);
    await h.write('role/other', IAM_ROLE);
    const id = dataOf(await h.read('role/myrole')).role_id;
    expect(dataOf(await h.read('role/MYROLE')).role_id).toBe(id);
    await h.write('role/MYROLE', { bound_vpc_id: 'vpc-1' });
    expect(dataOf(await h.read('role/myRole'))).toMatchObject({ role_id: id, bound_vpc_id: ['vpc-1'] });
    expect(dataOf(await h.list('role/'))).toEqual({ keys: ['myrole', 'other'] });
    expect(dataOf(await h.list('roles'))).toEqual({ keys: ['myrole', 'other'] });
    expect(dataOf(await h.call('GET', 'roles/', undefined, { query: { list: 'true' } }))).toEqual({
      keys: ['myrole', 'other'],
    });
    await h.remove('role/MyRole');
    await h.remove('role/other');
    expect((await h.list('roles')).status).toBe(404);
  });

  it('asks for create on a new role and update on an existing one', async () => {
    const h = adminHarness();
    const seen: string[] = [];
    const authorize = ({ capability, path }: { capability: string; path: string }) => (
      seen.push(`${capability} ${path}`),
      true
    );
    await h.call('POST', 'role/Web', EC2_ROLE, { authorize });
    await h.call('POST', 'role/web', EC2_ROLE, { authorize });
    await h.call('LIST', 'roles', undefined, { authorize });
    expect(seen).toEqual(['create role/Web', 'update role/web', 'list roles/']);
    const denied = await h.call('DELETE', 'role/web', undefined, { authorize: () => false });
    expect(denied.status).toBe(403);
    expect((await h.read('role/web')).status).toBe(200);
  });

  it('404s on role names that break the name rule', async () => {
    const h = adminHarness();
    expect((await h.write('role/-web', EC2_ROLE)).status).toBe(404);
    expect((await h.write('role/web-', EC2_ROLE)).status).toBe(404);
    expect((await h.write('role/a.b_c-d', EC2_ROLE)).status).toBe(204);
  });

  it('keeps role_id and the HMAC key across updates, and never shows the key', async () => {
    const h = adminHarness();
    await h.write('role/web', { ...EC2_ROLE, role_tag: 'VaultRole' });
    const raw = JSON.parse(new TextDecoder().decode(await h.storage.get('auth/role/web')));
    expect(raw.hmac_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const first = await h.read('role/web');
    await h.write('role/web', { bound_vpc_id: 'vpc-1', hmac_key: 'attacker-chosen' });
    const raw2 = JSON.parse(new TextDecoder().decode(await h.storage.get('auth/role/web')));
    expect(raw2.hmac_key).toBe(raw.hmac_key);
    expect(dataOf(await h.read('role/web')).role_id).toBe(dataOf(first).role_id);
    for (const response of [
      first,
      await h.read('role/web'),
      await h.list('roles'),
      await h.write('role/web', { auth_type: 'iam' }),
    ]) {
      expect(JSON.stringify(response)).not.toContain(raw.hmac_key);
      expect(JSON.stringify(response)).not.toContain('hmac_key');
    }
  });

  it('refuses malformed field values with 400', async () => {
    const h = adminHarness();
    for (const body of [
      { ...EC2_ROLE, bound_vpc_id: { a: 1 } },
      { ...EC2_ROLE, token_ttl: 'forever' },
      { ...EC2_ROLE, token_ttl: -5 },
      { ...EC2_ROLE, token_num_uses: -1 },
      { ...EC2_ROLE, allow_instance_migration: 'maybe' },
      { ...EC2_ROLE, token_bound_cidrs: ['10.0.0.0/33'] },
      { ...EC2_ROLE, token_bound_cidrs: 'not-an-ip' },
    ]) {
      expect((await h.write('role/web', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await h.read('role/web')).status).toBe(404);
    expect((await h.write('role/web', 'a string body')).status).toBe(400);
  });
});

describe('role writes over shared storage', () => {
  it('two engines updating one role concurrently both land (compareAndPut)', async () => {
    const storage = testStorage();
    const a = adminHarness({ storage });
    const b = adminHarness({ storage });
    await a.write('role/web', EC2_ROLE);
    const writes = [];
    for (let i = 0; i < 10; i++) {
      writes.push(a.write('role/web', { bound_vpc_id: `vpc-${i}` }));
      writes.push(b.write('role/web', { bound_subnet_id: `subnet-${i}` }));
    }
    const responses = await Promise.all(writes);
    expect(responses.every((response) => response.status === 204)).toBe(true);
    const data = dataOf(await a.read('role/web'));
    expect(data.bound_vpc_id).toEqual(['vpc-9']);
    expect(data.bound_subnet_id).toEqual(['subnet-9']);
  });

  it('without compareAndPut, writers in one engine still serialise', async () => {
    const h = adminHarness({ storage: withoutCompareAndPut(testStorage()) });
    await h.write('role/web', EC2_ROLE);
    await Promise.all([
      h.write('role/web', { bound_vpc_id: 'vpc-1' }),
      h.write('role/web', { bound_subnet_id: 'subnet-1' }),
    ]);
    expect(dataOf(await h.read('role/web'))).toMatchObject({ bound_vpc_id: ['vpc-1'], bound_subnet_id: ['subnet-1'] });
  });

  it('a storage failure at any step answers 500 and leaves the previous role intact', async () => {
    for (let n = 1; n <= 4; n++) {
      const storage = new FaultyStorage(new MemoryStorage());
      const h = adminHarness({ storage });
      await h.write('role/web', EC2_ROLE);
      const before = await h.read('role/web');
      storage.arm(n);
      const response = await h.write('role/web', { bound_vpc_id: 'vpc-1' });
      storage.arm(undefined);
      const after = await h.read('role/web');
      if (response.status === 204) expect(dataOf(after).bound_vpc_id).toEqual(['vpc-1']);
      else {
        expect(response.status).toBe(500);
        expect(after).toEqual(before);
      }
    }
  });
});

describe('token fields', () => {
  it('round-trips every token field, durations as seconds', async () => {
    const h = adminHarness();
    await h.write('role/web', {
      ...EC2_ROLE,
      token_ttl: '1h',
      token_max_ttl: 7200,
      token_period: '30m',
      token_explicit_max_ttl: '3h',
      token_policies: 'Dev, ops ,dev',
      token_bound_cidrs: '10.0.0.0/8, 192.168.1.1, 2001:db8::/32',
      token_no_default_policy: true,
      token_num_uses: '5',
      token_type: 'service',
    });
    expect(dataOf(await h.read('role/web'))).toMatchObject({
      token_ttl: 3600,
      token_max_ttl: 7200,
      token_period: 1800,
      token_explicit_max_ttl: 10800,
      token_policies: ['Dev', 'ops', 'dev'],
      token_bound_cidrs: ['10.0.0.0/8', '192.168.1.1', '2001:db8::/32'],
      token_no_default_policy: true,
      token_num_uses: 5,
      token_type: 'service',
    });
  });

  it('checks the rules that tie token fields together', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('role/web', { ...EC2_ROLE, token_type: 'bogus' }))).toBe(
      `invalid 'token_type' value "bogus"`,
    );
    expect(errorOf(await h.write('role/web', { ...EC2_ROLE, token_type: 'batch', token_period: 60 }))).toBe(
      "'token_type' cannot be 'batch' when set to generate periodic tokens",
    );
    expect(errorOf(await h.write('role/web', { ...EC2_ROLE, token_type: 'batch', token_num_uses: 3 }))).toBe(
      "'token_type' cannot be 'batch' when set to generate tokens with limited use count",
    );
    expect(errorOf(await h.write('role/web', { ...EC2_ROLE, token_ttl: 100, token_max_ttl: 50 }))).toBe(
      "'token_ttl' cannot be greater than 'token_max_ttl'",
    );
    await h.write('role/web', { ...EC2_ROLE, token_max_ttl: 50 });
    expect(errorOf(await h.write('role/web', { token_ttl: 100 }))).toBe(
      "'token_ttl' cannot be greater than 'token_max_ttl'",
    );
    expect((await h.write('role/web', { token_type: '' })).status).toBe(204);
    expect(dataOf(await h.read('role/web')).token_type).toBe('default');
  });

  it('holds token_period and token_max_ttl to the mount maximum', async () => {
    const h = adminHarness({ mountMaxTtl: 3600 });
    expect(errorOf(await h.write('role/web', { ...EC2_ROLE, token_period: '2h' }))).toBe(
      "period of '2h0m0s' is greater than the backend's maximum lease TTL of '1h0m0s'",
    );
    const response = await h.write('role/web', { ...EC2_ROLE, token_max_ttl: '2h' });
    expect(response.status).toBe(200);
    expect(warningsOf(response)).toEqual([
      'Given max ttl of 7200 seconds greater than current mount/system default of 3600 seconds; max ttl will be capped at login time',
    ]);
    expect(dataOf(await h.read('role/web')).token_max_ttl).toBe(7200);
  });

  it('maps the deprecated policies, ttl, max_ttl and period onto the token fields', async () => {
    const h = adminHarness();
    await h.write('role/web', { ...EC2_ROLE, policies: 'B,a, b', ttl: '10s', max_ttl: '20s', period: '30s' });
    expect(dataOf(await h.read('role/web'))).toMatchObject({
      policies: ['a', 'b'],
      token_policies: ['a', 'b'],
      ttl: 10,
      token_ttl: 10,
      max_ttl: 20,
      token_max_ttl: 20,
      period: 30,
      token_period: 30,
    });

    // Both spellings: the token field wins and the legacy one mirrors it.
    await h.write('role/web', { policies: 'x', token_policies: 'y,z' });
    expect(dataOf(await h.read('role/web'))).toMatchObject({ policies: ['y', 'z'], token_policies: ['y', 'z'] });

    // Only the token field: the legacy one is cleared and no longer shown.
    await h.write('role/web', { token_policies: 'only', token_ttl: 5 });
    const data = dataOf(await h.read('role/web'));
    expect(data).toMatchObject({ token_policies: ['only'], token_ttl: 5 });
    expect(data).not.toHaveProperty('policies');
    expect(data).not.toHaveProperty('ttl');
    expect(data).toHaveProperty('max_ttl', 20);
  });
});
