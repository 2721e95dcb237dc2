import { describe, expect, it } from 'vitest';
import type { Storage } from '../../src/index.js';
import { testStorage } from '../support/test-storage.js';
import { errorOf } from './admin-harness.js';
import {
  accessListEntry,
  grantOf,
  loginHarness,
  refusalOf,
  sampleField,
  TELEPORT_2021,
  UUID,
} from './login/login-harness.js';

/** No login can yield a grant the service must refuse after committing the instance's nonce (issue 18.7). */

const PKCS7 = sampleField(TELEPORT_2021, 'rsa2048');

async function sampleEngine(extra: Record<string, unknown> = {}) {
  const storage = testStorage();
  const h = loginHarness({ storage });
  h.seedSample(TELEPORT_2021);
  await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId, token_policies: ['dev'], ...extra });
  return { h, storage, login: (body: Record<string, unknown> = {}) => h.login({ role: 'web', pkcs7: PKCS7, ...body }) };
}

/** A role stored with `root` among its policies, as one written before the rule could be. */
async function storeRootRole(storage: Storage): Promise<void> {
  const key = 'auth/role/web';
  const role = JSON.parse(new TextDecoder().decode(await storage.get(key)));
  role.token.policies = ['dev', 'root'];
  await storage.put(key, new TextEncoder().encode(JSON.stringify(role)));
}

describe('the root policy in roles and role tags', () => {
  it.each([
    ['token_policies', { token_policies: ['dev', 'root'] }],
    ['token_policies, spelled loosely', { token_policies: 'dev, Root ' }],
    ['the legacy policies field', { policies: 'root' }],
  ])('refuses a role write naming root in %s, and stores nothing', async (_name, fields) => {
    const { h } = await sampleEngine();
    const response = await h.write('role/web', fields);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toContain('cannot include the "root" policy');
    expect(((await h.read('role/web')).body as { data: { token_policies: string[] } }).data.token_policies).toEqual([
      'dev',
    ]);
  });

  it('refuses a role tag that would pass on root from a role stored before the rule', async () => {
    const { h, storage } = await sampleEngine({ role_tag: 'VaultRole' });
    await storeRootRole(storage);
    const inherited = await h.write('role/web/tag', {});
    expect(inherited.status).toBe(400);
    expect(errorOf(inherited)).toContain('cannot include the "root" policy');
    expect((await h.write('role/web/tag', { policies: 'root' })).status).toBe(400);
    expect((await h.write('role/web/tag', { policies: 'dev' })).status).toBe(200);
  });

  it('refuses the login of such a role before committing anything, so the instance is not locked out', async () => {
    const { h, storage, login } = await sampleEngine();
    await storeRootRole(storage);
    const [status, message] = refusalOf(await login());
    expect(status).toBe(400);
    expect(message).toContain('cannot include the "root" policy');
    expect(await accessListEntry(h, TELEPORT_2021.instanceId)).toBeUndefined();
    // Once the role is repaired, the instance logs in and receives its nonce.
    await h.role('web', { token_policies: ['dev'] });
    const grant = grantOf(await login());
    expect(grant.policies).toEqual(['dev']);
    expect(grant.metadata.nonce).toMatch(UUID);
  });
});
