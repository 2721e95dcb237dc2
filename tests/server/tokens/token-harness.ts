// A server for the token tests: root-made tokens, policies, and IAM logins (built with the package's own login helper,
// verified by the fake STS) through roles whose tokens may be bound to addresses. Requests can come from another
// loopback address (127.0.0.2), which is how a CIDR binding is seen to hold.
import { buildIamLoginBody } from '../../../src/aws.js';
import { ManualClock } from '../../../src/lib/clocks.js';
import type { ServerOptions } from '../../../src/server/index.js';
import { FakeAws } from '../../../src/testing/index.js';
import { request, startServer, type RawRequest, type RawResponse, type Started } from '../harness.js';

const ACCOUNT = '111122223333';
const SERVER_ID = 'strongroom.token-tests';

export interface TokenServer {
  started: Started;
  clock: ManualClock;
  root: string;
  /** Sends from 127.0.0.1, or from `from` (another loopback address). */
  send(options: RawRequest, from?: string): Promise<RawResponse>;
  /** POST auth/token/create (or `path`) with `token`; answers the raw response. */
  create(token: string, body: Record<string, unknown>, path?: string): Promise<RawResponse>;
  /** A token made by root with `body`; answers its client token. */
  made(body: Record<string, unknown>): Promise<string>;
  /** Root's lookup of a token's properties (undefined when it is not valid). */
  lookup(token: string): Promise<Record<string, any> | undefined>;
  putPolicy(name: string, policy: string): Promise<void>;
  /** Points the AWS auth mount at `mount` (below auth/) at the fake AWS, as the default one is at start. */
  configure(mount: string): Promise<void>;
  /** Writes an iam role bound to the test principal (`token_*` settings in `settings`), at auth/aws/ or `mount`. */
  putRole(name: string, settings: Record<string, unknown>, mount?: string): Promise<void>;
  /** An IAM login through `role`, at auth/aws/ or `mount` (with `headers`, such as X-Vault-Wrap-TTL); the raw response. */
  login(role: string, mount?: string, headers?: Record<string, string>): Promise<RawResponse>;
  stop(): Promise<void>;
}

export async function startTokenServer(options: ServerOptions = {}): Promise<TokenServer> {
  const aws = await FakeAws.start();
  const operator = aws.createUser({ accountId: ACCOUNT, userName: 'strongroom' });
  const operatorKey = aws.createAccessKey(ACCOUNT, operator.userName);
  const user = aws.createUser({ accountId: ACCOUNT, userName: 'token-tests' });
  const userKey = aws.createAccessKey(ACCOUNT, user.userName);
  // The fake STS checks signature times against real time: the server's clock starts now and moves by hand.
  const clock = new ManualClock(new Date());
  const started = await startServer({
    clock,
    env: {
      CLOUD_ACCESS_KEY: operatorKey.accessKeyId,
      CLOUD_SECRET_KEY: operatorKey.secretAccessKey,
      CLOUD_REGION: 'us-east-1',
    },
    ...options,
  });
  const root = started.rootToken;
  const send = (options: RawRequest, from?: string) =>
    request(started.url, from ? { ...options, tls: { ...options.tls, localAddress: from } } : options);
  const expectStatus = async (response: Promise<RawResponse>, status: number) => {
    const answer = await response;
    if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text}`);
    return answer;
  };
  const create = (token: string, body: Record<string, unknown>, path = 'auth/token/create') =>
    send({ method: 'POST', path: `/v1/${path}`, token, body });
  const configure = async (mount: string) => {
    await expectStatus(
      send({
        method: 'POST',
        path: `/v1/auth/${mount}/config/client`,
        token: root,
        body: { sts_endpoint: aws.url, iam_endpoint: aws.url, iam_server_id_header_value: SERVER_ID },
      }),
      204,
    );
  };
  await configure('aws');

  return {
    started,
    clock,
    root,
    send,
    create,
    made: async (body) => (await expectStatus(create(root, body), 200)).json.auth.client_token,
    lookup: async (token) => {
      const answer = await send({ method: 'POST', path: '/v1/auth/token/lookup', token: root, body: { token } });
      return answer.status === 200 ? answer.json.data : undefined;
    },
    putPolicy: async (name, policy) => {
      await expectStatus(
        send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, token: root, body: { policy } }),
        204,
      );
    },
    configure,
    putRole: async (name, settings, mount = 'aws') => {
      await expectStatus(
        send({
          method: 'POST',
          path: `/v1/auth/${mount}/role/${name}`,
          token: root,
          body: { auth_type: 'iam', bound_iam_principal_arn: [user.arn], ...settings },
        }),
        204,
      );
    },
    login: (role, mount = 'aws', headers) =>
      send({
        method: 'POST',
        path: `/v1/auth/${mount}/login`,
        ...(headers ? { headers } : {}),
        body: buildIamLoginBody({ credentials: userKey, serverId: SERVER_ID, role }),
      }),
    stop: async () => {
      await started.stop();
      await aws.stop();
    },
  };
}
