import { describe, expect, it } from 'vitest';
import {
  AuthenticationRefused,
  AuthMethod,
  InvalidRequest,
  isGrant,
  isOk,
  errorsOf,
  type AuthGrant,
  type LoginBody,
} from '../../../src/index.js';
import { FAKE_ACCOUNT, FakeCloud } from '../../support/fake-cloud.js';
import { testStorage } from '../../support/test-storage.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The iam login body of a signed GetCallerIdentity (the fake cloud answers for its `stsCaller` without checking it). */
const iamBody: LoginBody = {
  role: 'client',
  iam_http_request_method: 'POST',
  iam_request_url: b64('https://sts.amazonaws.com/'),
  iam_request_body: b64('Action=GetCallerIdentity&Version=2011-06-15'),
  iam_request_headers: b64(JSON.stringify({ 'Content-Type': ['application/x-www-form-urlencoded; charset=utf-8'] })),
};

async function authWithRole(): Promise<AuthMethod> {
  const cloud = new FakeCloud();
  const principal = cloud.addPrincipal('user', 'client');
  cloud.stsCaller = { arn: principal.arn, userId: principal.uniqueId, accountId: FAKE_ACCOUNT };
  const auth = new AuthMethod({ storage: testStorage(), cloud, env: {} });
  const role = await auth.handle({
    method: 'POST',
    path: 'role/client',
    body: { auth_type: 'iam', bound_iam_principal_arn: principal.arn, token_policies: ['app'] },
  });
  expect(role.status).toBe(204);
  return auth;
}

describe('auth.login, the typed login', () => {
  it('answers the same grant as POST login, typed without casts', async () => {
    const auth = await authWithRole();
    const grant: AuthGrant = await auth.login(iamBody, { remoteAddress: '10.0.0.1' });
    expect(grant.policies).toEqual(['app']);
    expect(grant.metadata.account_id).toBe(FAKE_ACCOUNT);

    const response = await auth.handle({ method: 'POST', path: 'login', body: iamBody, remoteAddress: '10.0.0.1' });
    expect(isGrant(response)).toBe(true);
    if (!isGrant(response)) return;
    expect(response.body.auth).toEqual(grant);
  });

  it('rejects with the typed error of the status handle() answers', async () => {
    const auth = await authWithRole();
    await expect(auth.login({ role: 'client' })).rejects.toThrow(InvalidRequest);
    const answered = await auth.handle({ method: 'POST', path: 'login', body: { role: 'client' } });
    expect(answered.status).toBe(400);

    const other = await auth.handle({
      method: 'POST',
      path: 'role/other',
      body: { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/other-*` },
    });
    expect(other.status).toBe(204);
    await expect(auth.login({ ...iamBody, role: 'other' })).rejects.toThrow(AuthenticationRefused);
    const refused = await auth.handle({ method: 'POST', path: 'login', body: { ...iamBody, role: 'other' } });
    expect(refused.status).toBe(403);
    expect(errorsOf(refused)).toHaveLength(1);
  });

  it('validates the body as handle() does', async () => {
    const auth = await authWithRole();
    await expect(auth.login({ role: 42 } as unknown as LoginBody)).rejects.toThrow(InvalidRequest);
    await expect(auth.login({ ...iamBody, pkcs7: 'x' })).rejects.toThrow(/both ec2 and iam/);
  });
});

describe('narrowing handle() results', () => {
  it('isOk narrows to a success body, errorsOf reads the messages of a failure', async () => {
    const auth = new AuthMethod({ storage: testStorage(), cloud: new FakeCloud(), env: {} });
    const written = await auth.handle({
      method: 'POST',
      path: 'role/web',
      body: { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*' },
    });
    expect(isOk(written)).toBe(true);
    expect(errorsOf(written)).toEqual([]);

    const read = await auth.handle({ method: 'GET', path: 'role/web' });
    if (!isOk(read)) throw new Error(errorsOf(read).join('; '));
    const status: 200 | 202 | 204 = read.status;
    expect(status).toBe(200);
    expect(read.body?.data).toMatchObject({ auth_type: 'iam' });
    expect(read.body?.errors).toBeUndefined();

    const missing = await auth.handle({ method: 'GET', path: 'role/none' });
    expect(isOk(missing)).toBe(false);
    expect(isGrant(missing)).toBe(false);
    expect(missing.body?.data).toBeUndefined();
  });
});
