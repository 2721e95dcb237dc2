import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EncryptedStorage, KvEngine, ManualClock, MemoryStorage } from '../../src/index.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import { syntheticPkcs7, testSigner, SYNTHETIC } from '../auth/login/login-harness.js';
import { FakeCloud } from '../support/fake-cloud.js';

/** Every value the wrapped storage holds, by key. */
async function everyStoredValue(storage: MemoryStorage): Promise<Map<string, Buffer>> {
  const values = new Map<string, Buffer>();
  for (const key of await storage.listPage('', { recursive: true, limit: 100_000 })) {
    values.set(key, Buffer.from((await storage.get(key))!));
  }
  return values;
}

function expectAbsent(values: Map<string, Buffer>, secrets: string[]): void {
  for (const [key, value] of values) {
    for (const secret of secrets) {
      for (const form of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')]) {
        expect(value.includes(form), `${key} holds ${secret}`).toBe(false);
      }
    }
  }
}

describe('encryption at rest leaves no secret in the wrapped storage', () => {
  it('after KV writes, auth configuration, roles, role tags and logins', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    const clock = new ManualClock('2026-03-01T00:00:00Z');
    const kv = new KvEngine({ storage, clock });
    const cloud = new FakeCloud();
    cloud.addInstance({ instanceId: SYNTHETIC.instanceId, imageId: SYNTHETIC.imageId });
    const auth = new AuthEngine({ storage, cloud, env: {}, clock });

    const KV_SECRET = 'kv-password-8c1f2e';
    const METADATA_SECRET = 'owner-token-51aa';
    const SECRET_KEY = 'SecretKeyCanary0/7f3aWJalrXUtnFEMIK7MDENG';
    const NONCE = 'client-nonce-3b9d0c';
    const ok = (response: { status: number; body?: unknown }) =>
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    ok(await kv.handle({ method: 'POST', path: 'data/app/db', body: { data: { password: KV_SECRET } } }));
    ok(await kv.handle({ method: 'POST', path: 'data/app/db', body: { data: { password: `${KV_SECRET}-2` } } }));
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    ok(
      await kv.handle({
        method: 'PATCH',
        path: 'data/app/db',
        headers: merge,
        body: { data: { extra: `${KV_SECRET}-3` } },
      }),
    );
    ok(
      await kv.handle({
        method: 'POST',
        path: 'metadata/app/db',
        body: { custom_metadata: { token: METADATA_SECRET } },
      }),
    );

    const { trusted } = await testSigner();
    ok(
      await auth.handle({ method: 'POST', path: 'config/certificate/test-ca', body: { aws_public_cert: trusted.pem } }),
    );
    ok(
      await auth.handle({
        method: 'POST',
        path: 'config/client',
        body: { access_key: 'AKIAEXAMPLE', secret_key: SECRET_KEY },
      }),
    );
    ok(
      await auth.handle({
        method: 'POST',
        path: 'role/web',
        body: { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId },
      }),
    );
    const tagged = {
      auth_type: 'ec2',
      bound_ami_id: SYNTHETIC.imageId,
      role_tag: 'T',
      token_policies: 'reader,writer',
    };
    ok(await auth.handle({ method: 'POST', path: 'role/tagged', body: tagged }));
    const tag = await auth.handle({ method: 'POST', path: 'role/tagged/tag', body: { policies: 'reader' } });
    ok(tag);
    const login = await auth.handle({
      method: 'POST',
      path: 'login',
      body: { role: 'web', pkcs7: await syntheticPkcs7(), nonce: NONCE },
    });
    expect(login.status).toBe(200);

    // The secrets the engines generated themselves, read back through the barrier.
    const role = JSON.parse(Buffer.from((await storage.get('auth/role/tagged'))!).toString()) as { hmac_key: string };
    const tagValue = (tag.body as { data: { tag_value: string } }).data.tag_value;
    expect(KV_SECRET.length > 0 && role.hmac_key.length).toBeGreaterThan(0);

    const values = await everyStoredValue(inner);
    expect(values.size).toBeGreaterThan(8);
    expectAbsent(values, [
      KV_SECRET,
      METADATA_SECRET,
      SECRET_KEY,
      NONCE,
      role.hmac_key,
      tagValue,
      'password',
      'secret_key',
      'hmac_key',
    ]);
    // Nothing stored is readable JSON: every value is a sealed value of format 1 (or the keyring record).
    for (const [key, value] of values) {
      if (!key.startsWith('.encryption/')) expect(value[0], key).toBe(1);
      expect(() => JSON.parse(value.toString('utf8')), key).toThrow();
    }
    // Paths stay visible, by design.
    expect(values.has('kv/metadata/app/db')).toBe(true);
  });
});
