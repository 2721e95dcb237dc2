// An IAM login through the example server, signed with aws4 the way Vault clients sign it, verified by the fake STS;
// then what the minted token may and may not do, its renewal through AuthMethod.renew, its expiry and its uses.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import aws4 from 'aws4';
import vault from 'node-vault';
import { ManualClock } from '../../src/lib/clocks.js';
import { FakeAws } from '../../src/testing/index.js';
import { failure, request, startServer, type Started } from './harness.js';

const ACCOUNT = '111122223333';
const SERVER_ID = 'strongroom.test';

let aws: FakeAws;
let started: Started;
let clock: ManualClock;
let admin: vault.client;
let clientKey: { accessKeyId: string; secretAccessKey: string };
const send = (options: Parameters<typeof request>[1]) => request(started.url, options);
const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * The login body of Vault's CLI and agent: a SigV4-signed sts:GetCallerIdentity POST, with the server-ID header added
 * before signing, each header sent as a list of values, everything base64-encoded.
 */
function iamLogin(role: string, key = clientKey, serverId = SERVER_ID) {
  const body = 'Action=GetCallerIdentity&Version=2011-06-15';
  const signed = aws4.sign(
    {
      service: 'sts',
      region: 'us-east-1',
      method: 'POST',
      host: 'sts.amazonaws.com',
      path: '/',
      body,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
        'X-Vault-AWS-IAM-Server-ID': serverId,
      },
    },
    key,
  );
  const headers = Object.fromEntries(
    Object.entries(signed.headers ?? {}).map(([name, value]) => [name, [String(value)]]),
  );
  return {
    role,
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64(body),
    iam_request_headers: b64(JSON.stringify(headers)),
  };
}

/** Logs in with node-vault; the client keeps the token it got. */
async function loggedIn(role: string): Promise<{ client: vault.client; login: any }> {
  const client = vault({ endpoint: started.url });
  const login = await client.awsIamLogin({ mount_point: 'aws', ...iamLogin(role) });
  return { client, login };
}

beforeAll(async () => {
  // The fake STS checks signature times against real time; the server's clock starts now and moves by hand.
  aws = await FakeAws.start();
  const operator = aws.createUser({ accountId: ACCOUNT, userName: 'strongroom' });
  const operatorKey = aws.createAccessKey(ACCOUNT, operator.userName);
  const webUser = aws.createUser({ accountId: ACCOUNT, userName: 'web-app' });
  clientKey = aws.createAccessKey(ACCOUNT, webUser.userName);

  clock = new ManualClock(new Date());
  started = await startServer({
    clock,
    env: {
      CLOUD_ACCESS_KEY: operatorKey.accessKeyId,
      CLOUD_SECRET_KEY: operatorKey.secretAccessKey,
      CLOUD_REGION: 'us-east-1',
    },
  });
  admin = vault({ endpoint: started.url, token: started.rootToken });

  await admin.write('auth/aws/config/client', {
    sts_endpoint: aws.url,
    iam_endpoint: aws.url,
    iam_server_id_header_value: SERVER_ID,
  });
  const role = {
    auth_type: 'iam',
    bound_iam_principal_arn: [webUser.arn],
    token_policies: ['web-reader'],
    token_ttl: 600,
    token_max_ttl: 1200,
  };
  await admin.write('auth/aws/role/web', role);
  await admin.write('auth/aws/role/twice', { ...role, token_num_uses: 2 });
  await admin.write('sys/policies/acl/web-reader', {
    policy: JSON.stringify({
      path: {
        'secret/data/web/*': { capabilities: ['read'] },
        'secret/data/web/admin': { capabilities: ['deny'] },
        'secret/metadata/web/*': { capabilities: ['list'] },
      },
    }),
  });
  await admin.write('secret/data/web/db', { data: { password: 'web-pass' } });
  await admin.write('secret/data/web/admin', { data: { password: 'admin-pass' } });
  await admin.write('secret/data/other/x', { data: { key: 'other' } });
}, 120_000);

afterAll(async () => {
  await started?.stop();
  await aws?.stop();
});

describe('IAM login', () => {
  it('mints a token with the role policies plus default, and Vault auth fields', async () => {
    const { client, login } = await loggedIn('web');
    expect(login.auth).toMatchObject({
      policies: ['default', 'web-reader'],
      token_policies: ['default', 'web-reader'],
      lease_duration: 600,
      renewable: true,
      token_type: 'service',
      metadata: { account_id: ACCOUNT, auth_type: 'iam' },
    });
    expect(login.auth.client_token).toMatch(/^sr\./);
    expect(client.token).toBe(login.auth.client_token);
    expect(JSON.stringify(login)).not.toContain('internal_data');
    expect(aws.calls('GetCallerIdentity').length).toBeGreaterThan(0);
  });

  it('refuses a request signed for another server and issues nothing', async () => {
    const refused = await send({
      method: 'POST',
      path: '/v1/auth/aws/login',
      body: iamLogin('web', clientKey, 'someone-else'),
    });
    expect([400, 403]).toContain(refused.status);
    expect(refused.json.errors[0]).toContain('someone-else');
    expect(refused.text).not.toContain('client_token');
  });

  it('refuses a login signed with an unknown key with 403', async () => {
    const refused = await send({
      method: 'POST',
      path: '/v1/auth/aws/login',
      body: iamLogin('web', { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'x' }),
    });
    expect(refused.status).toBe(403);
  });
});

describe('a policy-restricted token', () => {
  let client: vault.client;
  beforeAll(async () => {
    ({ client } = await loggedIn('web'));
  });

  it('reads and lists what its policy grants', async () => {
    expect((await client.read('secret/data/web/db')).data.data).toEqual({ password: 'web-pass' });
    expect((await client.list('secret/metadata/web')).data.keys).toEqual(['admin', 'db']);
  });

  it('is denied everything else with 403, and changes nothing', async () => {
    expect((await failure(client.read('secret/data/web/admin'))).statusCode).toBe(403);
    expect((await failure(client.read('secret/data/other/x'))).statusCode).toBe(403);
    expect(await failure(client.write('secret/data/web/db', { data: { password: 'overwritten' } }))).toEqual({
      statusCode: 403,
      body: { errors: ['permission denied'] },
    });
    expect((await failure(client.update('secret/data/web/db', { data: { x: 1 } }))).statusCode).toBe(403);
    expect((await failure(client.delete('secret/metadata/web/db'))).statusCode).toBe(403);
    expect((await failure(client.write('sys/policies/acl/web-reader', { policy: '{}' }))).statusCode).toBe(403);
    expect((await failure(client.write('auth/aws/role/web', { token_policies: ['root'] }))).statusCode).toBe(403);
    expect((await admin.read('secret/data/web/db')).data.data).toEqual({ password: 'web-pass' });
  });

  it('reports its capabilities', async () => {
    const answer = await client.write('sys/capabilities-self', {
      paths: ['secret/data/web/db', 'secret/data/web/admin', 'secret/data/other/x'],
    });
    expect(answer.data).toMatchObject({
      'secret/data/web/db': ['read'],
      'secret/data/web/admin': ['deny'],
      'secret/data/other/x': ['deny'],
    });
  });
});

describe('token lifecycle', () => {
  it('looks itself up, renews through AuthMethod.renew up to max_ttl, then expires', async () => {
    const { client, login } = await loggedIn('web');
    const self = await client.tokenLookupSelf();
    expect(self.data).toMatchObject({
      id: login.auth.client_token,
      accessor: login.auth.accessor,
      policies: ['default', 'web-reader'],
      ttl: 600,
      creation_ttl: 600,
      path: 'auth/aws/login',
      renewable: true,
      meta: { account_id: ACCOUNT, auth_type: 'iam' },
    });

    clock.advance(400);
    const renewed = await client.tokenRenewSelf();
    expect(renewed.auth).toMatchObject({
      client_token: login.auth.client_token,
      lease_duration: 600,
      policies: ['default', 'web-reader'],
    });

    clock.advance(500);
    const capped = await client.tokenRenewSelf();
    expect(capped.auth.lease_duration).toBe(300);
    expect(capped.warnings[0]).toContain('exceeded the effective max_ttl');

    clock.advance(299);
    expect((await client.read('secret/data/web/db')).data.data).toEqual({ password: 'web-pass' });
    clock.advance(1);
    expect((await failure(client.read('secret/data/web/db'))).statusCode).toBe(403);
    expect((await failure(client.tokenLookupSelf())).statusCode).toBe(403);
  });

  it('passes on a renewal the auth method refuses, and the token keeps its expiry', async () => {
    const { client } = await loggedIn('web');
    await admin.write('auth/aws/role/doomed', (await admin.read('auth/aws/role/web')).data);
    const doomed = vault({ endpoint: started.url });
    await doomed.awsIamLogin({ mount_point: 'aws', ...iamLogin('doomed') });
    await admin.delete('auth/aws/role/doomed');
    const refused = await failure(doomed.tokenRenewSelf());
    expect(refused.statusCode).toBe(403);
    expect((await doomed.tokenLookupSelf()).data.ttl).toBe(600);
    expect((await client.tokenRenewSelf()).auth.lease_duration).toBe(600);
  });

  it('counts uses: token_num_uses 2 allows two requests', async () => {
    const { client, login } = await loggedIn('twice');
    expect(login.auth.num_uses).toBe(2);
    expect((await client.read('secret/data/web/db')).data.data).toEqual({ password: 'web-pass' });
    expect((await client.tokenLookupSelf()).data.num_uses).toBe(0);
    expect((await failure(client.read('secret/data/web/db'))).statusCode).toBe(403);
  });

  it('revokes itself', async () => {
    const { client } = await loggedIn('web');
    await client.tokenRevokeSelf();
    expect((await failure(client.tokenLookupSelf())).statusCode).toBe(403);
  });

  it('runPeriodic runs the auth method periodic work', async () => {
    const periodic = vi.spyOn((started.app as unknown as { auth: { periodic(): Promise<void> } }).auth, 'periodic');
    await started.app.runPeriodic();
    expect(periodic).toHaveBeenCalledTimes(1);
    periodic.mockRestore();
  });
});
