import { describe, expect, it } from 'vitest';
import { CorruptDocument } from '../../../src/core/store/stored-json.js';
import { errorOf } from '../admin-harness.js';
import { grantOf, loginHarness, sampleField, TELEPORT_2021 } from '../login/login-harness.js';

/** Auth documents of the wrong shape: a clear 500 naming the key, and every key repairable (issue 18.8). */

const PKCS7 = sampleField(TELEPORT_2021, 'rsa2048');
const encode = (text: string) => new TextEncoder().encode(text);

async function sampleEngine() {
  const h = loginHarness();
  h.seedSample(TELEPORT_2021);
  const role = { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId, token_policies: ['dev'] };
  await h.role('web', role);
  return { h, role, login: () => h.login({ role: 'web', pkcs7: PKCS7 }) };
}

describe('auth documents of the wrong shape', () => {
  it.each([
    ['{}', '{}', 'field bound_account_id'],
    ['null', 'null', 'the document itself'],
    ['[]', '[]', 'the document itself'],
    ['policies that are not a list', null, 'field token.policies'],
  ])(
    'a role that is %s makes login and read a 500 naming it; DELETE and a new write repair it',
    async (_name, text, field) => {
      const { h, role, login } = await sampleEngine();
      const stored = JSON.parse(new TextDecoder().decode(await h.storage.get('auth/role/web')));
      stored.token.policies = 'dev';
      await h.storage.put('auth/role/web', encode(text ?? JSON.stringify(stored)));
      for (const response of [
        await login(),
        await h.read('role/web'),
        await h.write('role/web', { token_policies: ['x'] }),
      ]) {
        expect(response.status).toBe(500);
        expect(errorOf(response)).toBe(`stored entry "auth/role/web" is corrupt: ${field} has the wrong shape`);
      }
      expect(h.internalErrors.every((error) => error instanceof CorruptDocument)).toBe(true);
      expect((await h.remove('role/web')).status).toBe(204);
      await h.role('web', role);
      expect(grantOf(await login()).policies).toEqual(['dev']);
    },
  );

  it('an access-list entry stored as null is a 500 naming it until deleted through the API', async () => {
    const { h, login } = await sampleEngine();
    const key = `auth/identity-accesslist/${TELEPORT_2021.instanceId}`;
    await h.storage.put(key, encode('null'));
    const refused = await login();
    expect(refused.status).toBe(500);
    expect(errorOf(refused)).toContain(`stored entry "${key}" is corrupt`);
    expect((await h.remove(`identity-accesslist/${TELEPORT_2021.instanceId}`)).status).toBe(204);
    expect(grantOf(await login()).policies).toEqual(['dev']);
  });

  it('a client config that is a list is a 500 naming it, and deleting it repairs the mount', async () => {
    const { h, login } = await sampleEngine();
    await h.storage.put('auth/config/client', encode('[1,2]'));
    expect(errorOf(await login())).toContain('stored entry "auth/config/client" is corrupt');
    expect((await h.remove('config/client')).status).toBe(204);
    expect((await login()).status).toBe(200);
  });
});
