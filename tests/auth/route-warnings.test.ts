import { describe, expect, it } from 'vitest';
import { adminHarness, dataOf, EC2_ROLE, warningsOf } from './admin-harness.js';
import { grantOf, loginHarness, sampleField, TELEPORT_2021 } from './login/login-harness.js';

const warning = (...names: string[]) => `Endpoint ignored these unrecognized parameters: [${names.join(' ')}]`;

// Every path of the auth method warns about the request fields it does not know, as Vault's framework does.
describe("the auth method's warning for unknown fields", () => {
  it('a misspelt bound_vpc_ids on a role write answers the warning and binds nothing', async () => {
    const h = adminHarness();
    const written = await h.write('role/web', { ...EC2_ROLE, bound_vpc_ids: 'vpc-1' });
    expect(written).toEqual({ status: 200, body: { data: null, warnings: [warning('bound_vpc_ids')] } });
    expect(dataOf(await h.read('role/web')).bound_vpc_id).toEqual([]);
  });

  it('a correct role write answers 204 without a warning', async () => {
    const h = adminHarness();
    expect(await h.write('role/web', { ...EC2_ROLE, bound_vpc_id: 'vpc-1' })).toEqual({ status: 204 });
    expect(dataOf(await h.read('role/web')).bound_vpc_id).toEqual(['vpc-1']);
  });

  it("keeps the handler's own warnings first", async () => {
    const h = adminHarness();
    const written = await h.write('role/web', { ...EC2_ROLE, token_max_ttl: '10000h', colour: 'red' });
    expect(written.status).toBe(200);
    expect(warningsOf(written)).toHaveLength(2);
    expect(warningsOf(written)[1]).toBe(warning('colour'));
  });

  it('warns on reads about unknown query parameters, and on role tags, and not on refusals', async () => {
    const h = adminHarness();
    await h.write('role/web', { ...EC2_ROLE, role_tag: 'VaultRole' });
    expect(warningsOf(await h.call('GET', 'role/web', undefined, { query: { verbose: 'true' } }))).toEqual([
      warning('verbose'),
    ]);
    const tag = await h.write('role/web/tag', { policies: [], max_ttls: '1h' });
    expect(tag.status).toBe(200);
    expect(warningsOf(tag)).toEqual([warning('max_ttls')]);
    const refused = await h.write('role/web', { auth_type: 'iam', colour: 'red' });
    expect(refused.status).toBe(400);
    expect(warningsOf(refused)).toEqual([]);
  });

  it('the deprecated alias paths know the fields of the path they stand for', async () => {
    const h = adminHarness();
    expect(await h.write('config/tidy/identity-whitelist', { safety_buffer: 60 })).toEqual({ status: 204 });
    const stray = await h.write('config/tidy/identity-whitelist', { safety_buffer: 60, safety_bufer: 70 });
    expect(stray).toEqual({ status: 200, body: { data: null, warnings: [warning('safety_bufer')] } });
    expect(dataOf(await h.read('config/tidy/identity-accesslist')).safety_buffer).toBe(60);
  });

  it('a login with an unknown field warns, and the login still works', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId });
    const response = await h.login({ role: 'web', pkcs7: sampleField(TELEPORT_2021, 'rsa2048'), nonse: 'n-1' });
    expect(grantOf(response).policies).toEqual([]);
    expect(warningsOf(response)).toEqual([warning('nonse')]);
  });
});
