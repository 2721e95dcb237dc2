import { describe, expect, it } from 'vitest';
import { Acl, AuthMethod, KvEngine, MemoryStorage, parsePolicy } from '../../src/index.js';

// The README's embedding example, step by step: if this breaks, the README is wrong.
describe('the README embedding example', () => {
  const storage = new MemoryStorage();
  const kv = new KvEngine({ storage, storagePrefix: 'secret/' });
  const auth = new AuthMethod({ storage, storagePrefix: 'auth/cloud/', env: {} });
  const acl = new Acl([{ name: 'app', rules: parsePolicy('path "secret/data/app/*" { capabilities = ["create", "read", "update"] }') }]);

  it('writes through the ACL authorizer and answers the version metadata', async () => {
    const response = await kv.handle({
      method: 'POST',
      path: 'data/app/db',
      body: { data: { password: 's3cret' }, options: { cas: 0 } },
      authorize: acl.authorizer('secret/'),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ data: { version: 1, destroyed: false, deletion_time: '' } });
    expect((response.body as { data: { created_time: string } }).data.created_time).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('refuses what the policy does not grant, and both engines share one storage without clashing', async () => {
    const denied = await kv.handle({ method: 'GET', path: 'data/other', authorize: acl.authorizer('secret/') });
    expect(denied.status).toBe(403);
    const role = await auth.handle({ method: 'POST', path: 'role/web', body: { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*' } });
    expect(role.status).toBe(204);
    expect(await storage.list('')).toEqual(['auth/', 'secret/']);
  });

  it('answers a login without credentials with a clear 400', async () => {
    const login = await auth.handle({ method: 'POST', path: 'login', body: { role: 'web' } });
    expect(login.status).toBe(400);
  });
});
