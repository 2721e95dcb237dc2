// Logins and renewals through the public AuthMethod with the real AWS provider, against the local fake AWS: the
// iam login's signed request really travels to (fake) STS and is verified there; the ec2 login's instance, profile and
// STS role are really described through (fake) EC2, IAM and STS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsCloudProvider, buildIamLoginBody } from '../../src/aws.js';
import { AuthMethod } from '../../src/adapters/aws/auth-method.js';
import type { AuthGrant, EngineResponse } from '../../src/core/framework/request.js';
import { FakeAws, type FakeUser } from '../../src/testing/index.js';
import { syntheticPkcs7, testSigner } from '../auth/login/login-harness.js';
import { testStorage } from '../support/test-storage.js';
import { noImds, otherAccount, ownAccount } from './world.js';

const SERVER_ID = 'strongroom.test';
const INSTANCE_ID = 'i-0aaaaaaaaaaaaaaa1';
const FOREIGN_INSTANCE_ID = 'i-0bbbbbbbbbbbbbbb2';

let aws: FakeAws;
let auth: AuthMethod;
let webUser: FakeUser;
let webKey: { accessKeyId: string; secretAccessKey: string };

const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => auth.handle({ method, path, body });
const login = (body: object) => call('POST', 'login', body);

function grantOf(response: EngineResponse): AuthGrant {
  const grant = response.body?.auth;
  if (response.status !== 200 || !grant) throw new Error(`expected a grant, got ${JSON.stringify(response)}`);
  return grant;
}

function errorOf(response: EngineResponse): [number, string] {
  return [response.status, (response.body as { errors: string[] }).errors[0] ?? ''];
}

async function write(path: string, body: unknown): Promise<void> {
  const response = await call('POST', path, body);
  if (response.status >= 300) throw new Error(`${path}: ${JSON.stringify(response)}`);
}

beforeAll(async () => {
  aws = await FakeAws.start();
  const operator = aws.createUser({ accountId: ownAccount, userName: 'strongroom' });
  const operatorKey = aws.createAccessKey(ownAccount, operator.userName);
  webUser = aws.createUser({ accountId: ownAccount, userName: 'web-app' });
  webKey = aws.createAccessKey(ownAccount, webUser.userName);

  auth = new AuthMethod({
    storage: testStorage(),
    cloud: new AwsCloudProvider({ env: {}, imdsEndpoint: noImds, retryBaseDelayMs: 1, timeoutMs: 2_000 }),
  });
  await write('config/client', {
    access_key: operatorKey.accessKeyId,
    secret_key: operatorKey.secretAccessKey,
    endpoint: aws.url,
    iam_endpoint: aws.url,
    sts_endpoint: aws.url,
    max_retries: 0,
  });
}, 30_000);

afterAll(() => aws?.stop());

describe('iam login through the AWS provider and the fake STS', () => {
  it('logs in with a signed request carrying the server-ID header, and renews', async () => {
    await write('config/client', { iam_server_id_header_value: SERVER_ID });
    await write('role/web', {
      auth_type: 'iam',
      bound_iam_principal_arn: webUser.arn,
      token_policies: 'web-reader',
      token_ttl: 600,
    });
    const grant = grantOf(await login(buildIamLoginBody({ credentials: webKey, serverId: SERVER_ID, role: 'web' })));
    expect(grant).toMatchObject({
      policies: ['web-reader'],
      metadata: { account_id: ownAccount, auth_type: 'iam' },
      display_name: 'web-app',
      ttl: 600,
      internal_data: { client_arn: webUser.arn, client_user_id: webUser.userId },
    });
    const forwarded = aws.calls('GetCallerIdentity').at(-1);
    expect(forwarded).toMatchObject({
      host: 'sts.us-east-1.amazonaws.com',
      accessKeyId: webKey.accessKeyId,
      status: 200,
    });

    expect(grantOf(await auth.renew(grant)).ttl).toBe(600);
    await write('role/web', { token_ttl: 900 });
    expect(grantOf(await auth.renew(grant)).ttl).toBe(900);
  });

  it('refuses a request without the configured server-ID header before anything is sent, and a bad signature with 403', async () => {
    const before = aws.calls('GetCallerIdentity').length;
    expect(errorOf(await login(buildIamLoginBody({ credentials: webKey, role: 'web' })))).toEqual([
      400,
      'error validating X-Service-Cloud-IAM-Server-ID header: missing header "X-Service-Cloud-IAM-Server-ID"',
    ]);
    expect(aws.calls('GetCallerIdentity')).toHaveLength(before);

    const forged = buildIamLoginBody({
      credentials: { ...webKey, secretAccessKey: 'wrong' },
      serverId: SERVER_ID,
      role: 'web',
    });
    const [status, message] = errorOf(await login(forged));
    expect(status).toBe(403);
    expect(message).toContain('SignatureDoesNotMatch');
  });

  it('logs in without a server-ID header when none is configured, with an assumed role bound by wildcard', async () => {
    await write('config/client', { iam_server_id_header_value: '' });
    const appRole = aws.createRole({ accountId: ownAccount, roleName: 'app', path: '/team/' });
    await write('role/app', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${ownAccount}:role/team/*` });
    const session = aws.issueSessionCredentials({ accountId: ownAccount, roleName: 'app', sessionName: 'build-42' });
    const grant = grantOf(await login(buildIamLoginBody({ credentials: session, region: 'eu-west-1' })));
    expect(grant.display_name).toBe('app/build-42');
    expect(grant.internal_data).toMatchObject({ role_name: 'app', client_user_id: appRole.roleId });
    expect(aws.calls('GetRole').length).toBeGreaterThan(0);
    expect((await auth.renew(grant)).status).toBe(200);

    await call('DELETE', 'role/app');
    expect(errorOf(await auth.renew(grant))).toEqual([403, 'role entry not found']);
  });
});

describe('ec2 login through the AWS provider and the fake EC2 and IAM', () => {
  it('logs in with a synthetic rsa2048 document of a registered certificate, re-logs in with the nonce, and renews', async () => {
    const { trusted } = await testSigner();
    await write('config/certificate/test-ca', { aws_public_cert: trusted.pem, type: 'pkcs7' });
    aws.createRole({ accountId: ownAccount, roleName: 'web-instance' });
    const profile = aws.addInstanceProfile({ accountId: ownAccount, name: 'web-profile', roleNames: ['web-instance'] });
    aws.addInstance({
      accountId: ownAccount,
      region: 'us-east-1',
      instanceId: INSTANCE_ID,
      imageId: 'ami-0123abcd',
      vpcId: 'vpc-1',
      iamInstanceProfileArn: profile.arn,
    });
    await write('role/ec2-web', {
      auth_type: 'ec2',
      bound_ami_id: 'ami-0123abcd',
      bound_vpc_id: 'vpc-1',
      bound_iam_role_arn: `arn:aws:iam::${ownAccount}:role/web-*`,
      token_policies: 'web',
    });
    const pkcs7 = await syntheticPkcs7({ instanceId: INSTANCE_ID, accountId: ownAccount, imageId: 'ami-0123abcd' });

    const grant = grantOf(await login({ role: 'ec2-web', pkcs7 }));
    expect(grant.policies).toEqual(['web']);
    expect(grant.metadata.nonce).toMatch(/^[0-9a-f-]{36}$/);
    expect(aws.calls('DescribeInstances').at(-1)).toMatchObject({ region: 'us-east-1', status: 200 });
    expect(aws.calls('GetInstanceProfile').at(-1)?.status).toBe(200);

    expect(errorOf(await login({ role: 'ec2-web', pkcs7 }))).toEqual([403, 'client nonce mismatch']);
    expect((await login({ role: 'ec2-web', pkcs7, nonce: grant.metadata.nonce })).status).toBe(200);

    expect((await auth.renew(grant)).status).toBe(200);
    aws.instances.get(INSTANCE_ID)!.state = 'stopped';
    expect(errorOf(await auth.renew(grant))).toEqual([
      403,
      `failed to verify instance ID "${INSTANCE_ID}": instance is not in 'running' state`,
    ]);
  });

  it("describes a foreign account's instance only through that account's config/sts role", async () => {
    aws.addInstance({
      accountId: otherAccount,
      region: 'eu-west-1',
      instanceId: FOREIGN_INSTANCE_ID,
      imageId: 'ami-0123abcd',
    });
    await write('role/foreign', { auth_type: 'ec2', bound_account_id: otherAccount });
    const pkcs7 = await syntheticPkcs7({
      instanceId: FOREIGN_INSTANCE_ID,
      accountId: otherAccount,
      region: 'eu-west-1',
      imageId: 'ami-0123abcd',
    });
    const [status, message] = errorOf(await login({ role: 'foreign', pkcs7 }));
    expect(status).toBe(403);
    expect(message).toContain(`no STS role is configured for account "${otherAccount}"`);

    const reader = aws.createRole({ accountId: otherAccount, roleName: 'strongroom-reader', externalId: 'ext-1' });
    await write(`config/sts/${otherAccount}`, { sts_role: reader.arn, external_id: 'ext-1' });
    const grant = grantOf(await login({ role: 'foreign', pkcs7 }));
    expect(grant.metadata.account_id).toBe(otherAccount);
    expect(aws.calls('AssumeRole').length).toBeGreaterThan(0);
    expect(aws.calls('DescribeInstances').at(-1)).toMatchObject({ region: 'eu-west-1', status: 200 });
  });
});
