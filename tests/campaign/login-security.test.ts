import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIamLoginBody } from '../../src/aws.js';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import type { EngineResponse } from '../../src/core/framework/request.js';
import type { Storage } from '../../src/ports/storage.js';
import { syntheticPkcs7, testSigner } from '../auth/login/login-harness.js';
import { newProvider, otherAccount, ownAccount } from '../aws/world.js';
import { FakeAws } from '../../src/testing/index.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { testStorage } from '../support/test-storage.js';

/**
 * The security review of `POST login` against the known weaknesses of Vault's AWS auth method, end to end: the
 * built-in AWS provider talks HTTP to a local AWS endpoint that checks every SigV4 signature itself, and a canary
 * server records any connection a login should never make.
 */

const SERVER_ID = 'vault.example.com';

/** Records the keys read. */
class AuditedReads implements Storage {
  readonly reads: string[] = [];
  constructor(private readonly inner: MemoryStorage) {}
  get(key: string) {
    this.reads.push(key);
    return this.inner.get(key);
  }
  put(key: string, value: Uint8Array) {
    return this.inner.put(key, value);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  list(prefix: string) {
    this.reads.push(prefix);
    return this.inner.list(prefix);
  }
  compareAndPut(key: string, expected: Uint8Array | undefined, value: Uint8Array) {
    return this.inner.compareAndPut(key, expected, value);
  }
}
const b64 = (text: string) => Buffer.from(text).toString('base64');
const unb64 = (text: string) => Buffer.from(text, 'base64').toString('utf8');

let aws: FakeAws;
let canary: { url: string; host: string; hits: string[]; close: () => Promise<void> };
const clock = new ManualClock(new Date());

beforeAll(async () => {
  aws = await FakeAws.start({ clock });
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(`${request.method} ${request.headers.host}${request.url}`);
    response.writeHead(200, { 'Content-Type': 'text/xml' }).end('<GetCallerIdentityResponse/>');
  });
  server.on('connection', () => hits.push('connection'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  canary = {
    url: `http://${host}`,
    host,
    hits,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
});

afterAll(async () => {
  await aws.stop();
  await canary.close();
});

/** An auth method over the real provider, every endpoint at the fake; alice (own account) may log in as role alice. */
async function world(options: { serverId?: string; clientConfig?: Record<string, unknown> } = {}) {
  const server = aws.createUser({ accountId: ownAccount, userName: `server-${aws.users.size}` });
  const serverKey = aws.createAccessKey(ownAccount, server.userName);
  const alice = aws.createUser({ accountId: ownAccount, userName: `alice-${aws.users.size}` });
  const aliceKey = aws.createAccessKey(ownAccount, alice.userName);
  const auth = new AuthEngine({ storage: testStorage(), cloud: newProvider({ clock }), clock, env: {} });
  const config = {
    access_key: serverKey.accessKeyId,
    secret_key: serverKey.secretAccessKey,
    endpoint: aws.url,
    iam_endpoint: aws.url,
    sts_endpoint: aws.url,
    iam_server_id_header_value: options.serverId ?? SERVER_ID,
    max_retries: 0,
    ...options.clientConfig,
  };
  expect((await auth.handle({ method: 'POST', path: 'config/client', body: config })).status).toBe(204);
  const role = { auth_type: 'iam', bound_iam_principal_arn: alice.arn, resolve_aws_unique_ids: false };
  expect((await auth.handle({ method: 'POST', path: 'role/alice', body: role })).status).toBe(204);
  const signed = (overrides: { serverId?: string; stsUrl?: string; region?: string } = {}) =>
    buildIamLoginBody({ credentials: aliceKey, serverId: SERVER_ID, clock, role: 'alice', ...overrides });
  const login = (body: object) => auth.handle({ method: 'POST', path: 'login', body });
  return { auth, alice, aliceKey, signed, login };
}

/** Rewrites the header map of a login body. */
function withHeaders(
  body: { iam_request_headers: string },
  change: (headers: Record<string, string[]>) => Record<string, unknown>,
) {
  return { ...body, iam_request_headers: b64(JSON.stringify(change(JSON.parse(unb64(body.iam_request_headers))))) };
}

function expect400(response: EngineResponse, fragment: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect((response.body as { errors: string[] }).errors[0]).toContain(fragment);
}

/** Runs `act` and answers how many requests reached the fake AWS meanwhile. */
async function requestsDuring(act: () => Promise<void>): Promise<number> {
  const before = aws.requests.length;
  await act();
  return aws.requests.length - before;
}

describe('a genuine signed request', () => {
  it('logs in, and reaches STS only at the configured endpoint, with the signed Host', async () => {
    const { signed, login, alice } = await world();
    const response = await login(signed());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(
      (response.body as unknown as { auth: { internal_data: { client_arn: string } } }).auth.internal_data.client_arn,
    ).toBe(alice.arn);
    expect(aws.requests.at(-1)).toMatchObject({
      host: 'sts.us-east-1.amazonaws.com',
      action: 'GetCallerIdentity',
      status: 200,
    });
  });
});

describe('SSRF through the request URL (the connection goes only where the operator said)', () => {
  it('a URL naming another host only changes the Host header; nothing connects to that host', async () => {
    const { signed, login } = await world();
    const response = await login(signed({ stsUrl: `${canary.url}/` }));
    // STS vouches for the signature, which covered that Host: the login stands, and the canary saw nothing.
    expect(response.status).toBe(200);
    expect(aws.requests.at(-1)?.host).toBe(canary.host);
    expect(canary.hits).toEqual([]);
  });

  it.each([
    ['a path', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'must be the root URL'],
    ['credentials', `https://sts.amazonaws.com@${'127.0.0.1'}/`, 'must be the root URL'],
    ['a fragment', 'https://127.0.0.1#@sts.amazonaws.com/', 'must be the root URL'],
    ['a backslash', 'https://sts.amazonaws.com\\@127.0.0.1/', 'must be the root URL'],
    ['a query', 'https://sts.amazonaws.com/?Action=AssumeRole', 'must not have a query'],
    ['another scheme', 'file:///etc/passwd', 'the scheme must be https or http'],
    ['a space', 'https://sts.amazonaws.com /', 'error parsing iam_request_url'],
  ])('a URL with %s is refused before anything is sent', async (_, url, fragment) => {
    const { signed, login } = await world();
    const sent = await requestsDuring(async () =>
      expect400(await login({ ...signed(), iam_request_url: b64(url) }), fragment),
    );
    expect(sent).toBe(0);
    expect(canary.hits).toEqual([]);
  });

  it('with use_sts_region_from_client, a region that is not a region name never becomes a host name', async () => {
    const { login, aliceKey } = await world({ clientConfig: { use_sts_region_from_client: true } });
    for (const region of [
      `127.0.0.1:${canary.host.split(':')[1]}`,
      'us-east-1.evil.example',
      'us-east-1/..',
      '169.254.169.254',
    ]) {
      const body = buildIamLoginBody({
        credentials: aliceKey,
        serverId: SERVER_ID,
        clock,
        region,
        stsUrl: 'https://sts.amazonaws.com/',
      });
      // A region with a '/' breaks the credential scope apart: then no region is found at all.
      const sent = await requestsDuring(async () => expect400(await login(body), 'region'));
      expect(sent).toBe(0);
    }
    expect(canary.hits).toEqual([]);
  });

  it('a redirect from the STS endpoint is answered, never followed', async () => {
    const { signed, login } = await world();
    aws.failNext({ kind: 'raw', status: 307, body: '', contentType: 'text/plain' });
    const response = await login(signed());
    expect(response.status).toBe(502);
    expect(canary.hits).toEqual([]);
  });
});

describe('smuggling through the body or the headers (refused before anything reaches STS)', () => {
  const BODY = 'Action=GetCallerIdentity&Version=2011-06-15';
  it.each([
    ['a second Action', `${BODY}&Action=AssumeRole`, 'parameter Action is repeated'],
    [
      'an encoded second Action',
      'Action=GetCallerIdentity%26Action%3DAssumeRole&Version=2011-06-15',
      'the Action must be GetCallerIdentity',
    ],
    [
      'a semicolon separator',
      'Action=GetCallerIdentity;Action=AssumeRole&Version=2011-06-15',
      'not a form-encoded parameter list',
    ],
    ['an extra parameter', `${BODY}&RoleArn=arn:aws:iam::1:role/x`, 'not a form-encoded parameter list'],
    ['a second request', `${BODY}\r\n\r\nPOST / HTTP/1.1`, 'not a form-encoded parameter list'],
    ['look-alike letters', 'Ａction=GetCallerIdentity&Version=2011-06-15', 'not a form-encoded parameter list'],
  ])('a body with %s', async (_, body, fragment) => {
    const { signed, login } = await world();
    expect(
      await requestsDuring(async () => expect400(await login({ ...signed(), iam_request_body: b64(body) }), fragment)),
    ).toBe(0);
  });

  it.each([
    [
      'Transfer-Encoding',
      (h: Record<string, unknown>) => ({ ...h, 'Transfer-Encoding': ['chunked'] }),
      'invalid request header: Transfer-Encoding',
    ],
    [
      'two Content-Lengths',
      (h: Record<string, unknown>) => ({ ...h, 'Content-Length': ['43', '10'] }),
      'Content-Length does not match',
    ],
    [
      'a wrong Content-Length',
      (h: Record<string, unknown>) => ({ ...h, 'Content-Length': ['0'] }),
      'Content-Length does not match',
    ],
    [
      'a line break in a value',
      (h: Record<string, unknown>) => ({ ...h, 'X-Note': ['a\r\nX-Amz-Target: AssumeRole'] }),
      'line break or NUL',
    ],
    ['a space in a name', (h: Record<string, unknown>) => ({ ...h, 'X Amz Target': ['x'] }), 'invalid header name'],
    [
      'an X-Amz header off the list',
      (h: Record<string, unknown>) => ({ ...h, 'X-Amz-Target': ['AWSSecurityTokenServiceV20110615.AssumeRole'] }),
      'invalid request header: X-Amz-Target',
    ],
    [
      'a Connection header',
      (h: Record<string, unknown>) => ({ ...h, Connection: ['keep-alive, Transfer-Encoding'] }),
      'invalid request header: Connection',
    ],
  ])('headers with %s', async (_, change, fragment) => {
    const { signed, login } = await world();
    expect(await requestsDuring(async () => expect400(await login(withHeaders(signed(), change)), fragment))).toBe(0);
  });

  it("a Host of the client's own is ignored: STS sees the URL's host, and the signature decides", async () => {
    const { signed, login } = await world();
    const response = await login(withHeaders(signed(), (headers) => ({ ...headers, Host: [canary.host] })));
    expect(response.status).toBe(200);
    expect(aws.requests.at(-1)?.host).toBe('sts.us-east-1.amazonaws.com');
    expect(canary.hits).toEqual([]);
  });
});

describe('the server-ID header', () => {
  const authorizationOf = (headers: Record<string, string[]>) => headers.Authorization?.[0] as string;

  it('must be present, equal the configured value, and be signed', async () => {
    const { signed, login } = await world();
    expect400(await login(signed({ serverId: undefined })), 'missing header "X-Service-Cloud-IAM-Server-ID"');
    // A request signed for another server cannot be replayed against this one.
    expect400(await login(signed({ serverId: 'other.example.com' })), "does not carry this server's ID");
    const unsigned = withHeaders(signed({ serverId: undefined }), (headers) => ({
      ...headers,
      'X-Service-Cloud-IAM-Server-ID': [SERVER_ID],
    }));
    expect400(await login(unsigned), "wasn't signed");
  });

  it('cannot be declared signed by a second SignedHeaders list that STS may not read', async () => {
    const { signed, login } = await world();
    const base = withHeaders(signed({ serverId: undefined }), (headers) => ({
      ...headers,
      'X-Service-Cloud-IAM-Server-ID': [SERVER_ID],
    }));
    const decoys = [
      (headers: Record<string, string[]>) => ({
        ...headers,
        Authorization: [`${authorizationOf(headers)}, SignedHeaders=host;x-amz-date;x-service-cloud-iam-server-id`],
      }),
      (headers: Record<string, string[]>) => ({
        ...headers,
        Authorization: [authorizationOf(headers), 'SignedHeaders=x-service-cloud-iam-server-id'],
      }),
      (headers: Record<string, string[]>) => ({
        ...headers,
        authorization: ['SignedHeaders=x-service-cloud-iam-server-id'],
      }),
      (headers: Record<string, string[]>) => ({
        ...headers,
        Authorization: [
          authorizationOf(headers).replace(
            'SignedHeaders=',
            'signedheaders=x-service-cloud-iam-server-id, SignedHeaders=',
          ),
        ],
      }),
    ];
    for (const decoy of decoys) {
      expect(await requestsDuring(async () => expect400(await login(withHeaders(base, decoy)), 'SignedHeaders'))).toBe(
        0,
      );
    }
  });

  it("Vault's header name serves too, but every server-ID header present must be signed", async () => {
    const { signed, login } = await world();
    const extra = withHeaders(signed(), (headers) => ({ ...headers, 'X-Vault-AWS-IAM-Server-ID': [SERVER_ID] }));
    expect400(await login(extra), "the X-Vault-AWS-IAM-Server-ID header wasn't signed");
  });
});

describe('replay of a signed request', () => {
  it('works only while STS accepts the signature (15 minutes), and only against the server it names', async () => {
    const { signed, login } = await world();
    const body = signed();
    expect((await login(body)).status).toBe(200);
    expect((await login(body)).status).toBe(200);
    clock.advance(16 * 60);
    const late = await login(body);
    expect(late.status).toBe(403);
    expect((late.body as { errors: string[] }).errors[0]).toContain('SignatureDoesNotMatch');
  });
});

describe('client caches keyed without the account', () => {
  it('a caller from a foreign account cannot have its inferred instance looked up in the server account', async () => {
    const { auth } = await world();
    aws.addInstance({
      instanceId: 'i-0feedfacefeedface',
      accountId: ownAccount,
      region: 'us-east-1',
      imageId: 'ami-victim',
    });
    const role = {
      auth_type: 'iam',
      bound_iam_principal_arn: `arn:aws:iam::${otherAccount}:role/*`,
      resolve_aws_unique_ids: false,
      inferred_entity_type: 'ec2_instance',
      inferred_aws_region: 'us-east-1',
      bound_ami_id: 'ami-victim',
    };
    expect((await auth.handle({ method: 'POST', path: 'role/inferring', body: role })).status).toBe(204);
    // Warm every cache with the server's own account first.
    aws.createRole({ accountId: ownAccount, roleName: 'own' });
    const own = aws.issueSessionCredentials({
      accountId: ownAccount,
      roleName: 'own',
      sessionName: 'i-0feedfacefeedface',
    });
    await auth.handle({
      method: 'POST',
      path: 'login',
      body: buildIamLoginBody({ credentials: own, serverId: SERVER_ID, clock, role: 'inferring' }),
    });
    // The attacker names its session after the victim's instance.
    aws.createRole({ accountId: otherAccount, roleName: 'attacker' });
    const attacker = aws.issueSessionCredentials({
      accountId: otherAccount,
      roleName: 'attacker',
      sessionName: 'i-0feedfacefeedface',
    });
    const before = aws.calls('DescribeInstances').length;
    const response = await auth.handle({
      method: 'POST',
      path: 'login',
      body: buildIamLoginBody({ credentials: attacker, serverId: SERVER_ID, clock, role: 'inferring' }),
    });
    expect(response.status).toBe(403);
    expect((response.body as { errors: string[] }).errors[0]).toContain(
      `no STS role is configured for account "${otherAccount}"`,
    );
    expect(aws.calls('DescribeInstances').length).toBe(before);
  });
});

describe('what an unauthenticated caller can learn (decision 26)', () => {
  it('a document that does not verify gets the same answer whether the role exists or not, and no role is read', async () => {
    const storage = new AuditedReads(new MemoryStorage());
    const auth = new AuthEngine({ storage, cloud: new FakeCloud(), env: {} });
    await auth.handle({ method: 'POST', path: 'role/web', body: { auth_type: 'ec2', bound_ami_id: 'ami-1' } });
    const { trusted } = await testSigner();
    await auth.handle({ method: 'POST', path: 'config/certificate/test-ca', body: { aws_public_cert: trusted.pem } });
    const genuine = await syntheticPkcs7();
    // One flipped byte inside the signature: well-formed, but not signed by anyone trusted.
    const forged = Buffer.from(genuine, 'base64');
    forged.writeUInt8((forged.at(-10) as number) ^ 1, forged.length - 10);
    storage.reads.length = 0;
    const answers = [];
    for (const role of ['web', 'no-such-role'])
      answers.push(
        await auth.handle({ method: 'POST', path: 'login', body: { role, pkcs7: forged.toString('base64') } }),
      );
    expect(answers[0]?.status).toBe(403);
    expect(answers[1]).toEqual(answers[0]);
    expect(storage.reads.filter((key) => key.includes('/role/'))).toEqual([]);
  });
});
