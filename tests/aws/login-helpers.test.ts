import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildEc2LoginBody, buildIamLoginBody, fetchEc2Pkcs7 } from '../../src/aws.js';
import { ManualClock } from '../../src/lib/clocks.js';
import { CloudUnavailable } from '../../src/lib/errors.js';
import { FakeImds } from '../../src/testing/index.js';
import { decodeIamLogin } from './capture.js';
import { newProvider, noImds, ownAccount, settings, startWorld, type World } from './world.js';

const fromBase64 = (value: string) => Buffer.from(value, 'base64').toString('utf8');

describe('buildIamLoginBody', () => {
  const credentials = {
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  };
  const clock = new ManualClock('2026-03-04T05:06:07Z');

  it('encodes a signed POST GetCallerIdentity for the regional STS host as Vault clients do', () => {
    const body = buildIamLoginBody({
      credentials,
      region: 'eu-west-1',
      serverId: 'vault.example.com',
      role: 'web',
      clock,
    });
    expect(body.iam_http_request_method).toBe('POST');
    expect(body.role).toBe('web');
    expect(fromBase64(body.iam_request_url)).toBe('https://sts.eu-west-1.amazonaws.com/');
    expect(fromBase64(body.iam_request_body)).toBe('Action=GetCallerIdentity&Version=2011-06-15');
    const headers = JSON.parse(fromBase64(body.iam_request_headers)) as Record<string, string[]>;
    expect(Object.keys(headers).sort()).toEqual([
      'Authorization',
      'Content-Type',
      'X-Amz-Date',
      'X-Service-Cloud-IAM-Server-ID',
    ]);
    expect(headers['X-Amz-Date']).toEqual(['20260304T050607Z']);
    expect(headers['X-Service-Cloud-IAM-Server-ID']).toEqual(['vault.example.com']);
    expect(headers.Authorization?.[0]).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/20260304\/eu-west-1\/sts\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date;x-service-cloud-iam-server-id, Signature=[0-9a-f]{64}$/,
    );
  });

  it('defaults to us-east-1, signs no server-ID header when none is given, and partitions the host', () => {
    const plain = buildIamLoginBody({ credentials, clock });
    expect(fromBase64(plain.iam_request_url)).toBe('https://sts.us-east-1.amazonaws.com/');
    expect('role' in plain).toBe(false);
    const headers = JSON.parse(fromBase64(plain.iam_request_headers)) as Record<string, string[]>;
    expect(headers.Authorization?.[0]).toContain('SignedHeaders=content-length;content-type;host;x-amz-date,');
    expect(fromBase64(buildIamLoginBody({ credentials, region: 'cn-north-1', clock }).iam_request_url)).toBe(
      'https://sts.cn-north-1.amazonaws.com.cn/',
    );
  });
});

describe('login helpers against the fake STS and IMDS', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(() => world.aws.stop());

  const viaFakeSts = (body: ReturnType<typeof buildIamLoginBody>) =>
    newProvider().forwardCallerIdentity({ settings: settings({ stsEndpoint: world.aws.url }) }, decodeIamLogin(body));

  it('builds a body whose decoded request the fake STS accepts, long-term and temporary credentials alike', async () => {
    const longTerm = await viaFakeSts(buildIamLoginBody({ credentials: world.key, serverId: 'vault.example.com' }));
    expect(longTerm.status).toBe(200);
    expect(longTerm.body).toContain(`<Arn>${world.user.arn}</Arn>`);

    world.aws.createRole({ accountId: ownAccount, roleName: 'app' });
    const session = world.aws.issueSessionCredentials({
      accountId: ownAccount,
      roleName: 'app',
      sessionName: 'i-0123456789abcdef0',
    });
    const temporary = await viaFakeSts(buildIamLoginBody({ credentials: session, region: 'ap-southeast-2' }));
    expect(temporary.status).toBe(200);
    expect(temporary.body).toContain(`assumed-role/app/i-0123456789abcdef0</Arn>`);
    expect(world.aws.requests.at(-1)).toMatchObject({
      host: 'sts.ap-southeast-2.amazonaws.com',
      region: 'ap-southeast-2',
    });
    expect(world.aws.requests.at(-1)?.headers['x-amz-security-token']).toBe(session.sessionToken);
  });

  it('signs the server-ID header: changing its value breaks the signature', async () => {
    const body = buildIamLoginBody({ credentials: world.key, serverId: 'vault.example.com' });
    const headers = JSON.parse(fromBase64(body.iam_request_headers)) as Record<string, string[]>;
    const forged = { ...headers, 'X-Service-Cloud-IAM-Server-ID': ['other.example.com'] };
    const answer = await viaFakeSts({
      ...body,
      iam_request_headers: Buffer.from(JSON.stringify(forged)).toString('base64'),
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('SignatureDoesNotMatch');
  });

  it('is refused by STS when signed with a wrong secret', async () => {
    const answer = await viaFakeSts(buildIamLoginBody({ credentials: { ...world.key, secretAccessKey: 'wrong' } }));
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('SignatureDoesNotMatch');
  });
});

describe('fetchEc2Pkcs7 / buildEc2LoginBody', () => {
  const served = readFileSync(
    new URL('../../fixtures/aws-iid-samples/teleport-us-west-2-2021/rsa2048', import.meta.url),
    'utf8',
  );
  let imds: FakeImds;
  beforeEach(async () => {
    imds = await FakeImds.start({ rsa2048: served });
  });
  afterEach(() => imds.stop());

  it('gets an IMDSv2 token, then the rsa2048 PKCS#7, returned without newlines', async () => {
    expect(served).toContain('\n');
    const pkcs7 = await fetchEc2Pkcs7({ imdsEndpoint: imds.url });
    expect(pkcs7).toBe(served.replace(/\n/g, ''));
    expect(pkcs7).not.toMatch(/[\r\n]/);
    expect(imds.requests.map((entry) => [entry.method, entry.path, entry.withToken])).toEqual([
      ['PUT', '/latest/api/token', false],
      ['GET', '/latest/dynamic/instance-identity/rsa2048', true],
    ]);
  });

  it('builds an ec2 login body with the optional role and nonce', async () => {
    const body = await buildEc2LoginBody({ imdsEndpoint: imds.url, role: 'web', nonce: 'n-1' });
    expect(body).toEqual({ pkcs7: served.replace(/\n/g, ''), role: 'web', nonce: 'n-1' });
    expect(Object.keys(await buildEc2LoginBody({ imdsEndpoint: imds.url }))).toEqual(['pkcs7']);
  });

  it('reports a missing metadata service as CloudUnavailable', async () => {
    await expect(fetchEc2Pkcs7({ imdsEndpoint: noImds })).rejects.toThrow(CloudUnavailable);
    const bare = await FakeImds.start({});
    try {
      await expect(fetchEc2Pkcs7({ imdsEndpoint: bare.url })).rejects.toThrow(
        'instance metadata /latest/dynamic/instance-identity/rsa2048 answered HTTP 404',
      );
    } finally {
      await bare.stop();
    }
  });
});
