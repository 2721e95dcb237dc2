import { describe, expect, it } from 'vitest';
import { PRINCIPAL_ARN_TTL_MS } from '../../../src/auth/context/principal-arn-cache.js';
import { FAKE_ACCOUNT } from '../../support/fake-cloud.js';
import { loginHarness, refusalOf, type LoginHarness } from './login-harness.js';

// The full ARN of an iam principal, looked up in IAM for wildcard bindings, is kept a minute per account, region,
// STS role, external ID and unique ID (docs/aws.md, "Fewer AWS calls").

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The iam login fields of a signed GetCallerIdentity (the fake cloud does not check the signature). */
function iamFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64('Action=GetCallerIdentity&Version=2011-06-15'),
    iam_request_headers: {
      Authorization:
        'AWS4-HMAC-SHA256 Credential=AKIA/20260101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=00',
    },
    ...overrides,
  };
}

/** Makes STS vouch for a session of the role `name`. */
function caller(h: LoginHarness, name: string, path: string) {
  const principal = h.cloud.addPrincipal('role', name, { path });
  h.cloud.stsCaller = {
    arn: `arn:aws:sts::${FAKE_ACCOUNT}:assumed-role/${name}/session-1`,
    userId: `${principal.uniqueId}:session-1`,
    accountId: FAKE_ACCOUNT,
  };
  return principal;
}

describe('iam login: the full-ARN cache of wildcard bindings', () => {
  it("reuses a role's full ARN for a minute: a second login makes no second IAM lookup", async () => {
    const h = loginHarness();
    caller(h, 'app', 'team');
    await h.role('web', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/team/*` });
    expect((await h.login(iamFields({ role: 'web' }))).status).toBe(200);
    expect((await h.login(iamFields({ role: 'web' }))).status).toBe(200);
    expect(h.cloud.callsTo('getPrincipal')).toHaveLength(1);
    h.clock.advance(PRINCIPAL_ARN_TTL_MS / 1000);
    expect((await h.login(iamFields({ role: 'web' }))).status).toBe(200);
    expect(h.cloud.callsTo('getPrincipal')).toHaveLength(2);
  });

  it('keeps full ARNs apart per STS role and external ID, and never keeps a mismatch', async () => {
    const h = loginHarness();
    caller(h, 'app', 'team');
    await h.role('web', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/team/*` });
    const loginAs = async (sts: Record<string, string>) => {
      expect((await h.write(`config/sts/${FAKE_ACCOUNT}`, sts)).status).toBe(204);
      return h.login(iamFields({ role: 'web' }));
    };
    const first = { sts_role: `arn:aws:iam::${FAKE_ACCOUNT}:role/vault-a` };
    h.cloud.allowStsRole(first.sts_role);
    h.cloud.allowStsRole(`arn:aws:iam::${FAKE_ACCOUNT}:role/vault-b`);
    expect((await loginAs(first)).status).toBe(200);
    expect((await loginAs({ sts_role: `arn:aws:iam::${FAKE_ACCOUNT}:role/vault-b` })).status).toBe(200);
    expect((await loginAs({ ...first, external_id: 'other' })).status).toBe(200);
    expect((await loginAs(first)).status).toBe(200);
    const roles = h.cloud
      .callsTo('getPrincipal')
      .map((call) => [call.scope.stsRole?.roleArn, call.scope.stsRole?.externalId]);
    expect(roles).toEqual([
      [first.sts_role, undefined],
      [`arn:aws:iam::${FAKE_ACCOUNT}:role/vault-b`, undefined],
      [first.sts_role, 'other'],
    ]);

    // A principal of that name whose unique ID is not the caller's is refused, and looked up again every time.
    const fresh = loginHarness();
    caller(fresh, 'app', 'team');
    fresh.cloud.removePrincipal('role', 'app');
    fresh.cloud.addPrincipal('role', 'app', { path: 'team' });
    await fresh.role('web', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/team/*` });
    expect(refusalOf(await fresh.login(iamFields({ role: 'web' })))[0]).toBe(403);
    expect(refusalOf(await fresh.login(iamFields({ role: 'web' })))[0]).toBe(403);
    expect(fresh.cloud.callsTo('getPrincipal')).toHaveLength(2);
  });
});
