// `strongroom login` run as a process against a real server whose cloud auth method talks to the fake AWS: iam logins
// signed with the environment's keys and with an instance role's (the credential chain reaching IMDS), an ec2 login
// from the instance's identity document, the 0600 token file later commands use, and which token wins.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAws, FakeImds } from '../../src/testing/index.js';
import { syntheticPkcs7, testSigner } from '../auth/login/login-harness.js';
import { builtCli, request, startServer, type Started } from '../server/harness.js';
import { freshHome, runCli } from './run-cli.js';

const ACCOUNT = '111122223333';
const SERVER_ID = 'strongroom.cli-tests';
const INSTANCE_ID = 'i-0aaaaaaaaaaaaaaa1';

let cli: string;
let server: Started;
let aws: FakeAws;
let imds: FakeImds;
let userKey: { accessKeyId: string; secretAccessKey: string };

async function write(path: string, body: object): Promise<void> {
  const answer = await request(server.url, { method: 'POST', path: `/v1/${path}`, token: server.rootToken, body });
  if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${answer.text}`);
}

beforeAll(async () => {
  aws = await FakeAws.start();
  const operator = aws.createUser({ accountId: ACCOUNT, userName: 'strongroom' });
  const operatorKey = aws.createAccessKey(ACCOUNT, operator.userName);
  const user = aws.createUser({ accountId: ACCOUNT, userName: 'deployer' });
  userKey = aws.createAccessKey(ACCOUNT, user.userName);
  aws.createRole({ accountId: ACCOUNT, roleName: 'web-instance' });
  const profile = aws.addInstanceProfile({ accountId: ACCOUNT, name: 'web-profile', roleNames: ['web-instance'] });
  aws.addInstance({
    accountId: ACCOUNT,
    region: 'us-east-1',
    instanceId: INSTANCE_ID,
    imageId: 'ami-0123abcd',
    vpcId: 'vpc-1',
    iamInstanceProfileArn: profile.arn,
  });
  const pkcs7 = await syntheticPkcs7({ instanceId: INSTANCE_ID, accountId: ACCOUNT, imageId: 'ami-0123abcd' });
  imds = await FakeImds.start({
    roleName: 'web-instance',
    credentials: () =>
      aws.issueSessionCredentials({ accountId: ACCOUNT, roleName: 'web-instance', sessionName: INSTANCE_ID }),
    rsa2048: pkcs7.replace(/(.{64})/g, '$1\n'),
  });
  [cli, server] = await Promise.all([
    builtCli(),
    startServer({
      env: {
        CLOUD_ACCESS_KEY: operatorKey.accessKeyId,
        CLOUD_SECRET_KEY: operatorKey.secretAccessKey,
        CLOUD_REGION: 'us-east-1',
      },
    }),
  ]);
  await write('auth/aws/config/client', {
    endpoint: aws.url,
    iam_endpoint: aws.url,
    sts_endpoint: aws.url,
    iam_server_id_header_value: SERVER_ID,
  });
  await write('auth/aws/config/certificate/test-ca', {
    aws_public_cert: (await testSigner()).trusted.pem,
    type: 'pkcs7',
  });
  await write('sys/policies/acl/deploy', { policy: 'path "secret/data/deploy/*" { capabilities = ["read"] }' });
  await write('auth/aws/role/deploy', {
    auth_type: 'iam',
    bound_iam_principal_arn: user.arn,
    token_policies: 'deploy',
  });
  await write('auth/aws/role/instance', {
    auth_type: 'iam',
    bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:role/web-instance`,
    token_policies: 'deploy',
  });
  await write('auth/aws/role/ec2-web', { auth_type: 'ec2', bound_ami_id: 'ami-0123abcd', token_policies: 'deploy' });
  await write('secret/data/deploy/app', { data: { key: 'value-1' } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await imds?.stop();
  await aws?.stop();
});

/** The environment of one user: their HOME, the server, no instance metadata unless asked. */
const userEnv = (home: string, extra: Record<string, string> = {}) => ({
  HOME: home,
  STRONGROOM_ADDR: server.url,
  AWS_EC2_METADATA_SERVICE_ENDPOINT: 'http://127.0.0.1:9',
  ...extra,
});

describe('strongroom login -method=aws', () => {
  it('logs in with the keys of the environment, stores the token 0600, and later commands use it', async () => {
    const home = freshHome();
    const env = userEnv(home, {
      AWS_ACCESS_KEY_ID: userKey.accessKeyId,
      AWS_SECRET_ACCESS_KEY: userKey.secretAccessKey,
    });
    const login = await runCli(cli, ['login', '-method=aws', 'role=deploy', `header_value=${SERVER_ID}`], env);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/^Success! You are now authenticated\./);
    expect(login.stdout).toMatch(/\ntoken_policies +\[default deploy\]\n/);
    expect(login.stdout).not.toContain(userKey.secretAccessKey);

    const file = join(home, '.strongroom-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, 'utf8');
    expect(login.stdout).toMatch(new RegExp(`\\ntoken +${token}\\n`));

    const read = await runCli(cli, ['kv', 'get', '-field=key', 'deploy/app'], userEnv(home));
    expect(read).toEqual({ code: 0, stdout: 'value-1', stderr: '' });
    const looked = await runCli(cli, ['token', 'lookup', '-format=json'], userEnv(home));
    expect(JSON.parse(looked.stdout).data.policies).toEqual(['default', 'deploy']);
  });

  it('lets STRONGROOM_TOKEN, then VAULT_TOKEN, win over the token file, and warns at login', async () => {
    const home = freshHome();
    const keys = { AWS_ACCESS_KEY_ID: userKey.accessKeyId, AWS_SECRET_ACCESS_KEY: userKey.secretAccessKey };
    const login = await runCli(
      cli,
      ['login', '-method=aws', 'role=deploy', `header_value=${SERVER_ID}`],
      userEnv(home, { ...keys, VAULT_TOKEN: server.rootToken }),
    );
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('WARNING! The VAULT_TOKEN environment variable is set!');
    const policies = async (extra: Record<string, string>) =>
      JSON.parse((await runCli(cli, ['token', 'lookup', '-format=json'], userEnv(home, extra))).stdout).data.policies;
    expect(await policies({})).toEqual(['default', 'deploy']);
    expect(await policies({ VAULT_TOKEN: server.rootToken })).toEqual(['root']);
    expect(await policies({ VAULT_TOKEN: 'sr.bogus', STRONGROOM_TOKEN: server.rootToken })).toEqual(['root']);
  });

  it("signs with an instance role's credentials when the chain reaches the instance metadata service", async () => {
    const home = freshHome();
    const login = await runCli(
      cli,
      ['login', '-method=aws', '-field=token', 'role=instance', `header_value=${SERVER_ID}`],
      userEnv(home, { AWS_EC2_METADATA_SERVICE_ENDPOINT: imds.url }),
    );
    expect(login.stderr).toBe('');
    expect(login.stdout).toMatch(/^sr\./);
    expect(readFileSync(join(home, '.strongroom-token'), 'utf8')).toBe(login.stdout);
    expect(imds.requests.some(({ path }) => path.startsWith('/latest/meta-data/iam/security-credentials/'))).toBe(true);
  });

  it("logs in as an ec2 instance with the instance's signed identity document", async () => {
    const home = freshHome();
    const login = await runCli(
      cli,
      ['login', '-method=aws', '-format=json', 'type=ec2', 'role=ec2-web'],
      userEnv(home, { AWS_EC2_METADATA_SERVICE_ENDPOINT: imds.url }),
    );
    expect(login.stderr).toBe('');
    const answer = JSON.parse(login.stdout);
    expect(answer.auth.policies).toEqual(['default', 'deploy']);
    expect(answer.auth.metadata).toMatchObject({ auth_type: 'ec2', account_id: ACCOUNT });
    expect(readFileSync(join(home, '.strongroom-token'), 'utf8')).toBe(answer.auth.client_token);
  });

  it('fails with exit 1 when there are no AWS credentials, and 2 when the server refuses the login', async () => {
    const none = await runCli(cli, ['login', '-method=aws', 'role=deploy'], userEnv(freshHome()));
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^no AWS credentials to log in with: /);
    const keys = { AWS_ACCESS_KEY_ID: userKey.accessKeyId, AWS_SECRET_ACCESS_KEY: userKey.secretAccessKey };
    const refused = await runCli(cli, ['login', '-method=aws', 'role=deploy'], userEnv(freshHome(), keys));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Code: 400');
    expect(refused.stderr).not.toContain(userKey.secretAccessKey);
    const home = freshHome();
    expect((await runCli(cli, ['login', '-method=aws', 'bogus=1'], userEnv(home, keys))).code).toBe(1);
  });
});

describe('strongroom login TOKEN', () => {
  it('checks the token, stores it, and refuses one the server does not know (exit 2, nothing stored)', async () => {
    const home = freshHome();
    const good = await runCli(cli, ['login', server.rootToken], userEnv(home));
    expect(good.code).toBe(0);
    expect(readFileSync(join(home, '.strongroom-token'), 'utf8')).toBe(server.rootToken);
    const other = freshHome();
    const bad = await runCli(cli, ['login', 'sr.unknown'], userEnv(other));
    expect(bad.code).toBe(2);
    expect(() => statSync(join(other, '.strongroom-token'))).toThrow();
  });
});
