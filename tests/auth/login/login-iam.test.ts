import { describe, expect, it } from 'vitest';
import { CloudUnavailable } from '../../../src/lib/errors.js';
import type { HttpResponseSnapshot, SignedHttpRequest } from '../../../src/ports/cloud.js';
import { PRINCIPAL_ARN_TTL_MS } from '../../../src/auth/context/principal-arn-cache.js';
import { FAKE_ACCOUNT } from '../../support/fake-cloud.js';
import { dataOf } from '../admin-harness.js';
import { DEFAULT_TOKEN_FIELDS, grantOf, loginHarness, refusalOf, type LoginHarness } from './login-harness.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const SERVER_ID = 'vault.example.com';
const BODY = 'Action=GetCallerIdentity&Version=2011-06-15';
const AUTHORIZATION =
  'AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20260101/eu-west-1/sts/aws4_request, ' +
  'SignedHeaders=content-type;host;x-amz-date;x-service-cloud-iam-server-id, Signature=0123abcd';
const HEADERS: Record<string, string | string[]> = {
  Authorization: [AUTHORIZATION],
  'Content-Type': ['application/x-www-form-urlencoded; charset=utf-8'],
  'X-Amz-Date': ['20260101T000000Z'],
  'X-Service-Cloud-IAM-Server-ID': [SERVER_ID],
};

/** The iam login fields of a signed GetCallerIdentity (the fake cloud does not check the signature). */
function iamFields(
  overrides: Record<string, unknown> = {},
  headers: Record<string, string | string[]> = HEADERS,
): Record<string, unknown> {
  return {
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64(BODY),
    iam_request_headers: b64(JSON.stringify(headers)),
    ...overrides,
  };
}

/** Makes STS vouch for an IAM user or a session of a role (an instance's, when the session name is its id). */
function caller(
  h: LoginHarness,
  type: 'user' | 'role',
  name: string,
  options: { session?: string; path?: string; accountId?: string } = {},
) {
  const principal = h.cloud.addPrincipal(type, name, options);
  const accountId = options.accountId ?? FAKE_ACCOUNT;
  const session = options.session ?? 'session-1';
  h.cloud.stsCaller =
    type === 'user'
      ? { arn: principal.arn, userId: principal.uniqueId, accountId }
      : {
          arn: `arn:aws:sts::${accountId}:assumed-role/${name}/${session}`,
          userId: `${principal.uniqueId}:${session}`,
          accountId,
        };
  return principal;
}

const forwards = (h: LoginHarness) => h.cloud.callsTo('forwardCallerIdentity');

describe('iam login: request validation (nothing reaches STS)', () => {
  const with400 = (message: string | RegExp, fields: Record<string, unknown>) => ({ message, fields });
  const mallory = { ...HEADERS, 'X-Amz-Mallory-Header': ['x'] };
  const cases = [
    with400('missing iam_http_request_method', iamFields({ iam_http_request_method: '' })),
    with400(
      "invalid iam_http_request_method; currently only 'POST' is supported",
      iamFields({ iam_http_request_method: 'GET' }),
    ),
    with400(
      "invalid iam_http_request_method; currently only 'POST' is supported",
      iamFields({ iam_http_request_method: 'post' }),
    ),
    with400('missing iam_request_url', iamFields({ iam_request_url: '' })),
    with400('failed to base64 decode iam_request_url', iamFields({ iam_request_url: '%%%' })),
    with400('error parsing iam_request_url', iamFields({ iam_request_url: b64('not a url') })),
    with400(
      /^invalid request: iam_request_url must not have a query/,
      iamFields({ iam_request_url: b64('https://sts.amazonaws.com/?Action=GetSessionToken') }),
    ),
    with400(
      /^invalid request: iam_request_url must be the root URL/,
      iamFields({ iam_request_url: b64('https://sts.amazonaws.com/other') }),
    ),
    with400('missing iam_request_body which is required for POST requests', iamFields({ iam_request_body: '' })),
    with400('failed to base64 decode iam_request_body', iamFields({ iam_request_body: 'not base64!' })),
    with400(
      'iam request body is invalid: unexpected parameter "Foo"',
      iamFields({ iam_request_body: b64(`${BODY}&Foo=bar`) }),
    ),
    with400(
      'iam request body is invalid: the Action must be GetCallerIdentity',
      iamFields({ iam_request_body: b64('Action=GetSessionToken&Version=2011-06-15') }),
    ),
    with400('missing iam_request_headers', iamFields({ iam_request_headers: '' })),
    with400(/^failed to parse iam_request_headers: /, iamFields({ iam_request_headers: 'garbage' })),
    with400(/^failed to parse iam_request_headers: /, iamFields({ iam_request_headers: 42 })),
    with400('invalid request header: X-Amz-Mallory-Header', iamFields({}, mallory)),
  ];

  it('refuses every malformed or widened request with 400, with or without config/client', async () => {
    for (const configured of [false, true]) {
      const h = loginHarness();
      if (configured) await h.write('config/client', { sts_endpoint: 'https://sts.example.com' });
      await h.role('client', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/*` });
      for (const { message, fields } of cases) {
        const [status, text] = refusalOf(await h.login(fields));
        expect(status, JSON.stringify(fields)).toBe(400);
        if (typeof message === 'string') expect(text).toBe(message);
        else expect(text).toMatch(message);
      }
      expect(forwards(h)).toEqual([]);
      expect(h.cloud.calls).toEqual([]);
    }
  });

  it('checks the configured server-ID header: present, equal and signed', async () => {
    const h = loginHarness();
    await h.write('config/client', { iam_server_id_header_value: SERVER_ID });
    const prefix = 'error validating X-Service-Cloud-IAM-Server-ID header';
    const { 'X-Service-Cloud-IAM-Server-ID': _omitted, ...without } = HEADERS;
    const unsigned = { ...HEADERS, Authorization: [AUTHORIZATION.replace(';x-service-cloud-iam-server-id', '')] };
    const { Authorization: _auth, ...noAuthorization } = HEADERS;
    const cases: [Record<string, string | string[]>, string][] = [
      [without, `${prefix}: missing header "X-Service-Cloud-IAM-Server-ID"`],
      [
        { ...HEADERS, 'X-Service-Cloud-IAM-Server-ID': ['other.example.com'] },
        `${prefix}: the X-Service-Cloud-IAM-Server-ID header "other.example.com" does not carry this server's ID`,
      ],
      [unsigned, `${prefix}: the X-Service-Cloud-IAM-Server-ID header wasn't signed`],
      [noAuthorization, `${prefix}: missing Authorization header`],
    ];
    for (const [headers, message] of cases)
      expect(refusalOf(await h.login(iamFields({}, headers)))).toEqual([400, message]);
    expect(forwards(h)).toEqual([]);

    await h.role('client', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/*` });
    expect((await h.login(iamFields())).status).toBe(200);
    // Vault's header name serves as well, signed like ours.
    const vaultName = {
      ...without,
      Authorization: [AUTHORIZATION.replace('x-service-cloud-iam-server-id', 'x-vault-aws-iam-server-id')],
      'X-Vault-AWS-IAM-Server-ID': [SERVER_ID],
    };
    expect((await h.login(iamFields({}, vaultName))).status).toBe(200);
  });

  it('with use_sts_region_from_client, needs a valid region in the credential scope', async () => {
    const h = loginHarness();
    await h.write('config/client', { use_sts_region_from_client: true });
    const noScope = { ...HEADERS, Authorization: ['AWS4-HMAC-SHA256 SignedHeaders=host, Signature=00'] };
    expect(refusalOf(await h.login(iamFields({}, noScope)))).toEqual([400, 'region missing from Authorization header']);
    const fake = { ...HEADERS, Authorization: [AUTHORIZATION.replace('eu-west-1', 'fake-region-1')] };
    expect(refusalOf(await h.login(iamFields({}, fake)))).toEqual([
      400,
      'unable to get regional STS endpoint for region: fake-region-1',
    ]);
    expect(forwards(h)).toEqual([]);
  });
});

describe('iam login: forwarding to STS', () => {
  it('forwards the decoded request to the configured STS endpoint only, and accepts every header encoding', async () => {
    const h = loginHarness();
    await h.write('config/client', { sts_endpoint: 'https://sts.proxy.example.com', sts_region: 'us-west-2' });
    await h.role('client', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/*` });
    const encodings = [
      b64(JSON.stringify(HEADERS)),
      JSON.stringify(HEADERS),
      HEADERS,
      Object.entries(HEADERS).map(([name, values]) => `${name}: ${(values as string[])[0]}`),
    ];
    for (const encoded of encodings)
      expect((await h.login(iamFields({ iam_request_headers: encoded }))).status).toBe(200);
    const [first] = forwards(h);
    expect(first?.scope.settings).toMatchObject({
      stsEndpoint: 'https://sts.proxy.example.com',
      stsRegion: 'us-west-2',
    });
    expect(first?.scope.region).toBeUndefined();
    const request = first?.args[0] as SignedHttpRequest;
    expect(request).toMatchObject({ method: 'POST', url: 'https://sts.amazonaws.com/', body: BODY });
    expect(request.headers['X-Amz-Date']).toEqual(['20260101T000000Z']);
  });

  it("with use_sts_region_from_client, goes to the client's regional STS, overriding sts_endpoint", async () => {
    const h = loginHarness();
    await h.write('config/client', {
      use_sts_region_from_client: true,
      sts_endpoint: 'https://sts.proxy.example.com',
      sts_region: 'us-west-2',
    });
    await h.role('client', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/*` });
    expect((await h.login(iamFields())).status).toBe(200);
    const [forward] = forwards(h);
    expect(forward?.scope.region).toBe('eu-west-1');
    expect(forward?.scope.settings).toMatchObject({ stsEndpoint: '', stsRegion: '' });
  });

  it('answers 403 when STS refuses the signature and 502 when STS fails or answers something else', async () => {
    const h = loginHarness();
    await h.role('client', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/*` });
    const errorXml = (code: string) =>
      `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>The request signature we calculated does not match</Message></Error></ErrorResponse>`;
    h.cloud.forwardAnswer = () => ({
      status: 403,
      headers: { 'content-type': 'text/xml' },
      body: errorXml('SignatureDoesNotMatch'),
    });
    expect(refusalOf(await h.login(iamFields()))).toEqual([
      403,
      'error making upstream request: received error code 403 from STS: SignatureDoesNotMatch: The request signature we calculated does not match',
    ]);
    const badAnswers: HttpResponseSnapshot[] = [
      { status: 500, headers: { 'content-type': 'text/xml' }, body: errorXml('InternalFailure') },
      { status: 200, headers: { 'content-type': 'application/xml' }, body: '<GetCallerIdentityResponse/>' },
      { status: 302, headers: { location: 'https://evil.example.com/' }, body: '' },
      { status: 200, headers: { 'content-type': 'text/xml' }, body: 'gibberish' },
    ];
    for (const answer of badAnswers) {
      h.cloud.forwardAnswer = () => answer;
      const [status, message] = refusalOf(await h.login(iamFields()));
      expect(status, JSON.stringify(answer)).toBe(502);
      expect(message).toMatch(/^error making upstream request: /);
    }
    h.cloud.forwardAnswer = () => {
      throw new Error('ECONNREFUSED');
    };
    expect(refusalOf(await h.login(iamFields()))).toEqual([
      502,
      'error making upstream request: the cloud provider call failed',
    ]);
    h.cloud.forwardAnswer = () => {
      throw new CloudUnavailable('sts at https://sts.amazonaws.com: timed out');
    };
    expect(refusalOf(await h.login(iamFields()))[0]).toBe(502);
  });

  it('refuses a principal STS reports that cannot log in (a root ARN) with 400, an inconsistent answer with 502', async () => {
    const h = loginHarness();
    h.cloud.stsCaller = { arn: `arn:aws:iam::${FAKE_ACCOUNT}:root`, userId: FAKE_ACCOUNT, accountId: FAKE_ACCOUNT };
    const [status, message] = refusalOf(await h.login(iamFields()));
    expect(status).toBe(400);
    expect(message).toMatch(/^error parsing arn "arn:aws:iam::123456789012:root": /);
    h.cloud.stsCaller = {
      arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/client`,
      userId: 'AIDACLIENT',
      accountId: '210987654321',
    };
    expect(refusalOf(await h.login(iamFields()))).toEqual([
      502,
      'error making upstream request: STS answered an Arn and an Account that disagree',
    ]);
  });

  it('tells a caller STS refused nothing about which roles exist', async () => {
    const h = loginHarness();
    await h.role('web', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/*` });
    h.cloud.forwardAnswer = () => ({
      status: 403,
      headers: { 'content-type': 'text/xml' },
      body: '<ErrorResponse><Error><Code>InvalidClientTokenId</Code></Error></ErrorResponse>',
    });
    const existing = await h.login(iamFields({ role: 'web' }));
    const missing = await h.login(iamFields({ role: 'nope' }));
    expect(existing.status).toBe(403);
    expect(missing).toEqual(existing);
    expect(h.cloud.calls.map((call) => call.method)).toEqual(['forwardCallerIdentity', 'forwardCallerIdentity']);
  });
});

describe('iam login: role and principal binding', () => {
  it('answers the whole grant, with the role named after the friendly name by default', async () => {
    const h = loginHarness();
    const user = caller(h, 'user', 'client');
    await h.role('client', {
      auth_type: 'iam',
      bound_iam_principal_arn: user.arn,
      token_policies: 'reader',
      token_ttl: '1h',
      period: 0,
    });
    const role = dataOf(await h.read('role/client'));
    expect(role.bound_iam_principal_id).toEqual([user.uniqueId]);
    const grant = grantOf(await h.login(iamFields()));
    expect(grant).toEqual({
      policies: ['reader'],
      metadata: { account_id: FAKE_ACCOUNT, auth_type: 'iam', role_id: role.role_id },
      alias: { name: role.role_id, metadata: { account_id: FAKE_ACCOUNT, auth_type: 'iam' } },
      display_name: 'client',
      ttl: 3600,
      max_ttl: 768 * 3600,
      ...DEFAULT_TOKEN_FIELDS,
      internal_data: {
        auth_type: 'iam',
        role_name: 'client',
        role_id: role.role_id,
        client_arn: user.arn,
        client_user_id: user.uniqueId,
        canonical_arn: user.arn,
        account_id: FAKE_ACCOUNT,
        inferred_entity_type: '',
        inferred_entity_id: '',
        inferred_aws_region: '',
      },
    });
  });

  it('refuses a missing role, an ec2 role and a caller outside token_bound_cidrs', async () => {
    const h = loginHarness();
    caller(h, 'user', 'client');
    expect(refusalOf(await h.login(iamFields()))).toEqual([400, 'entry for role client not found']);
    await h.role('web-ec2', { auth_type: 'ec2', bound_ami_id: 'ami-1' });
    expect(refusalOf(await h.login(iamFields({ role: 'web-ec2' })))).toEqual([
      400,
      'auth method iam not allowed for role web-ec2',
    ]);
    await h.role('fenced', {
      auth_type: 'iam',
      bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/*`,
      token_bound_cidrs: '10.0.0.0/8',
    });
    expect(refusalOf(await h.login(iamFields({ role: 'fenced' }), { remoteAddress: '192.0.2.1' }))[0]).toBe(403);
    expect((await h.login(iamFields({ role: 'FENCED' }), { remoteAddress: '10.0.0.1' })).status).toBe(200);
  });

  it('binds by unique id: a principal deleted and created again under the same name is refused', async () => {
    const h = loginHarness();
    const user = caller(h, 'user', 'client');
    await h.role('web', { auth_type: 'iam', bound_iam_principal_arn: user.arn });
    expect((await h.login(iamFields({ role: 'web' }))).status).toBe(200);
    h.cloud.removePrincipal('user', 'client');
    caller(h, 'user', 'client');
    expect(refusalOf(await h.login(iamFields({ role: 'web' })))).toEqual([
      403,
      `IAM Principal "${user.arn}" does not belong to the role "web"`,
    ]);
  });

  it('without unique-id resolution, binds the canonical ARN exactly (path dropped, assumed role as role)', async () => {
    const h = loginHarness();
    caller(h, 'role', 'app', { path: 'team' });
    await h.role('web', {
      auth_type: 'iam',
      bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/app`,
      resolve_aws_unique_ids: false,
    });
    const grant = grantOf(await h.login(iamFields({ role: 'web' })));
    expect(grant.display_name).toBe('app/session-1');
    expect(grant.internal_data.canonical_arn).toBe(`arn:aws:iam::${FAKE_ACCOUNT}:role/app`);
    await h.role('other', {
      auth_type: 'iam',
      bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/App`,
      resolve_aws_unique_ids: false,
    });
    expect(refusalOf(await h.login(iamFields({ role: 'other' })))[0]).toBe(403);
    expect(h.cloud.callsTo('getPrincipal')).toEqual([]);
  });

  it("matches wildcards against the full ARN, looking an assumed role's path up in IAM", async () => {
    const h = loginHarness();
    const role = caller(h, 'role', 'app', { path: 'team' });
    const bind = async (pattern: string) => {
      await h.role('web', { auth_type: 'iam', bound_iam_principal_arn: pattern });
      return h.login(iamFields({ role: 'web' }));
    };
    expect((await bind(`arn:aws:iam::${FAKE_ACCOUNT}:role/*`)).status).toBe(200);
    expect((await bind(`arn:aws:iam::${FAKE_ACCOUNT}:role/team/*`)).status).toBe(200);
    expect((await bind('*team/ap*')).status).toBe(200);
    expect(refusalOf(await bind(`arn:aws:iam::${FAKE_ACCOUNT}:role/ap*`))[0]).toBe(403);
    expect(refusalOf(await bind('*'))[0]).toBe(403);
    // One lookup served all five logins: the caller's full ARN is reused (PrincipalArnCache).
    expect(h.cloud.callsTo('getPrincipal')).toHaveLength(1);
    const lookup = h.cloud.callsTo('getPrincipal')[0];
    expect(lookup?.args).toEqual([`arn:aws:iam::${FAKE_ACCOUNT}:role/app`]);
    expect(lookup?.scope.accountId).toBe(FAKE_ACCOUNT);

    // A role of that name that is not the caller's own no longer matches, once the caller's full ARN is looked up again.
    h.cloud.removePrincipal('role', 'app');
    h.cloud.addPrincipal('role', 'app', { path: 'team' });
    h.clock.advance(PRINCIPAL_ARN_TTL_MS / 1000);
    expect(refusalOf(await bind(`arn:aws:iam::${FAKE_ACCOUNT}:role/*`))[0]).toBe(403);
    expect(role.arn).toBe(`arn:aws:iam::${FAKE_ACCOUNT}:role/team/app`);
  });

  it("matches a user's wildcard with the ARN STS reported, without an IAM call", async () => {
    const h = loginHarness();
    caller(h, 'user', 'client', { path: 'people' });
    await h.role('web', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/people/*` });
    expect((await h.login(iamFields({ role: 'web' }))).status).toBe(200);
    expect(h.cloud.callsTo('getPrincipal')).toEqual([]);
    h.cloud.failOn('getPrincipal', new Error('down'));
    await h.role('roles', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/*` });
    expect(refusalOf(await h.login(iamFields({ role: 'roles' })))[0]).toBe(403);
  });

  it('answers 502 when the full-ARN lookup fails', async () => {
    const h = loginHarness();
    caller(h, 'role', 'app');
    await h.role('web', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/*` });
    h.cloud.failOn('getPrincipal', new Error('down'));
    expect(refusalOf(await h.login(iamFields({ role: 'web' })))).toEqual([
      502,
      `error looking up full ARN of entity "arn:aws:iam::${FAKE_ACCOUNT}:role/app": the cloud provider call failed`,
    ]);
  });
});

describe('iam login: alias and metadata', () => {
  it('names the alias per iam_alias and selects the metadata per iam_metadata', async () => {
    const h = loginHarness();
    const role = caller(h, 'role', 'app', { session: 'build-7' });
    await h.role('web', { auth_type: 'iam', bound_iam_principal_arn: role.arn });
    const sts = h.cloud.stsCaller;
    const login = async () => grantOf(await h.login(iamFields({ role: 'web' })));

    await h.write('config/identity', {
      iam_alias: 'unique_id',
      iam_metadata: 'canonical_arn,client_arn,client_user_id,account_id,auth_type',
    });
    const selected = await login();
    expect(selected.alias).toEqual({
      name: role.uniqueId,
      metadata: {
        canonical_arn: role.arn,
        client_arn: sts.arn,
        client_user_id: role.uniqueId,
        account_id: FAKE_ACCOUNT,
        auth_type: 'iam',
      },
    });
    expect(Object.keys(selected.metadata).sort()).toEqual([
      'account_id',
      'auth_type',
      'canonical_arn',
      'client_arn',
      'client_user_id',
      'role_id',
    ]);

    await h.write('config/identity', { iam_alias: 'full_arn', iam_metadata: [] });
    const bare = await login();
    expect(bare.alias).toEqual({ name: sts.arn, metadata: {} });
    expect(Object.keys(bare.metadata)).toEqual(['role_id']);
  });
});

describe('iam login: inferring an ec2 instance', () => {
  const INSTANCE_ID = 'i-0123456789abcdef0';

  async function inferring(role: Record<string, unknown> = {}, options: { accountId?: string } = {}) {
    const h = loginHarness();
    const principal = caller(h, 'role', 'instance-role', { session: INSTANCE_ID, ...options });
    h.cloud.addInstance({ instanceId: INSTANCE_ID, imageId: 'ami-12345678', vpcId: 'vpc-1' }, { region: 'eu-west-1' });
    await h.role('web', {
      auth_type: 'iam',
      bound_iam_principal_arn: `arn:aws:iam::${principal.arn.split(':')[4]}:role/*`,
      inferred_entity_type: 'ec2_instance',
      inferred_aws_region: 'eu-west-1',
      bound_ami_id: 'ami-12345678',
      ...role,
    });
    return h;
  }

  it("admits the running instance named by the session, in the caller's own account", async () => {
    const h = await inferring();
    await h.write('config/identity', { iam_metadata: 'inferred_entity_type,inferred_entity_id,inferred_aws_region' });
    const grant = grantOf(await h.login(iamFields({ role: 'web' })));
    expect(grant.alias.metadata).toEqual({
      inferred_entity_type: 'ec2_instance',
      inferred_entity_id: INSTANCE_ID,
      inferred_aws_region: 'eu-west-1',
    });
    expect(grant.internal_data).toMatchObject({
      inferred_entity_type: 'ec2_instance',
      inferred_entity_id: INSTANCE_ID,
      inferred_aws_region: 'eu-west-1',
    });
    const [describe] = h.cloud.callsTo('describeInstance');
    expect(describe?.args).toEqual([INSTANCE_ID]);
    expect(describe?.scope).toMatchObject({ region: 'eu-west-1', accountId: FAKE_ACCOUNT });
  });

  it('refuses a stopped instance, unmet constraints, and a caller that is no instance', async () => {
    const what = `failed to verify ${INSTANCE_ID} as a valid EC2 instance in region eu-west-1`;
    const stopped = await inferring();
    stopped.cloud.addInstance(
      { instanceId: INSTANCE_ID, imageId: 'ami-12345678', state: 'stopped' },
      { region: 'eu-west-1' },
    );
    expect(refusalOf(await stopped.login(iamFields({ role: 'web' })))).toEqual([
      403,
      `${what}: instance is not in 'running' state`,
    ]);

    const wrongAmi = await inferring({ bound_ami_id: 'ami-87654321', bound_vpc_id: 'vpc-1' });
    expect(refusalOf(await wrongAmi.login(iamFields({ role: 'web' })))).toEqual([
      403,
      'error validating instance: AMI ID "ami-12345678" does not belong to role "web"',
    ]);

    const user = await inferring();
    caller(user, 'user', 'client');
    await user.role('web', { bound_iam_principal_arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/*` });
    expect(refusalOf(await user.login(iamFields({ role: 'web' })))).toEqual([
      403,
      'failed to verify the caller as a valid EC2 instance in region eu-west-1: it is not an assumed role whose session name is an instance ID',
    ]);
  });

  it("never describes another account's instance for a caller from a foreign account", async () => {
    const foreign = {
      bound_iam_principal_arn: 'arn:aws:iam::210987654321:role/instance-role',
      resolve_aws_unique_ids: false,
    };
    const h = await inferring(foreign, { accountId: '210987654321' });
    const [status, message] = refusalOf(await h.login(iamFields({ role: 'web' })));
    expect(status).toBe(403);
    expect(message).toContain('no STS role is configured for account "210987654321"');
    expect(h.cloud.callsTo('describeInstance')[0]?.scope.accountId).toBe('210987654321');
  });

  it('reads config/client, config/sts, config/identity and the role once, however many cloud calls it makes', async () => {
    const h = await inferring();
    const reads: string[] = [];
    const get = h.storage.get.bind(h.storage);
    h.storage.get = (key) => (reads.push(key), get(key));
    grantOf(await h.login(iamFields({ role: 'web' })));
    expect(h.cloud.callsTo('getPrincipal')).toHaveLength(1);
    expect(h.cloud.callsTo('describeInstance')).toHaveLength(1);
    const count = (key: string) => reads.filter((read) => read === key).length;
    for (const key of [
      'auth/config/client',
      `auth/config/sts/${FAKE_ACCOUNT}`,
      'auth/config/identity',
      'auth/role/web',
    ]) {
      expect(count(key), key).toBe(1);
    }
  });

  it('answers 502 when the instance cannot be described', async () => {
    const h = await inferring();
    h.cloud.failOn('describeInstance', new Error('timeout'));
    expect(refusalOf(await h.login(iamFields({ role: 'web' })))).toEqual([
      502,
      `failed to verify ${INSTANCE_ID} as a valid EC2 instance in region eu-west-1: the cloud provider call failed`,
    ]);
  });
});
