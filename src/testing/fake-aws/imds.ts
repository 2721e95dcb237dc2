/**
 * A local IMDSv2: `PUT /latest/api/token` hands out session tokens; every GET must present one (401 otherwise).
 * Serves the instance role's credentials (minted on each request by `credentials`, e.g. from FakeAws's
 * issueSessionCredentials) and the rsa2048 identity document.
 *
 *   const imds = await FakeImds.start({ roleName: 'web', credentials: () => aws.issueSessionCredentials({...}) });
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { listenLocally, type LocalServer } from './listen.js';
import type { IssuedCredentials } from './state.js';

/** Options of `FakeImds.start`; every one is optional. */
export interface FakeImdsOptions {
  /** The instance role; without it the instance has none (an empty credentials listing). */
  roleName?: string;
  /** Called on each request for the role's credentials, e.g. `() => aws.issueSessionCredentials({...})`. */
  credentials?: () => IssuedCredentials;
  /** The body of /latest/dynamic/instance-identity/rsa2048, newlines included as IMDS serves them. */
  rsa2048?: string;
}

/** One entry of `FakeImds.requests`: a request and the status answered. */
export interface FakeImdsRequest {
  method: string;
  path: string;
  /** Whether a valid session token came with the request. */
  withToken: boolean;
  status: number;
}

/**
 * A fake IMDSv2 on a loopback port: session tokens, the instance role's credentials and the rsa2048 identity
 * document. Point the provider's `imdsEndpoint` (or a login helper's) at its `url`.
 */
export class FakeImds {
  /** Every request received, in arrival order. */
  readonly requests: FakeImdsRequest[] = [];
  private readonly tokens = new Set<string>();
  private server: LocalServer | undefined;
  /** `http://127.0.0.1:<port>`, set by `start()`. */
  url = '';

  private constructor(private readonly options: FakeImdsOptions) {}

  /** Listens on 127.0.0.1 at a free port; resolves once it does. */
  static async start(options: FakeImdsOptions = {}): Promise<FakeImds> {
    const imds = new FakeImds(options);
    imds.server = await listenLocally((request, response) => imds.serve(request, response));
    imds.url = imds.server.url;
    return imds;
  }

  /** Forgets every session token, as after an IMDS restart: the next GET with an old token gets 401. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  /** Closes the server, dropping open connections. */
  async stop(): Promise<void> {
    await this.server?.stop();
  }

  private serve(request: http.IncomingMessage, response: http.ServerResponse): void {
    const path = request.url ?? '/';
    const token = request.headers['x-aws-ec2-metadata-token'];
    const withToken = typeof token === 'string' && this.tokens.has(token);
    const reply = (status: number, body: string, contentType = 'text/plain') => {
      this.requests.push({ method: request.method ?? '', path, withToken, status });
      response.writeHead(status, { 'Content-Type': contentType }).end(body);
    };
    request.resume();
    if (request.method === 'PUT' && path === '/latest/api/token') {
      const ttl = Number(request.headers['x-aws-ec2-metadata-token-ttl-seconds']);
      if (!Number.isInteger(ttl) || ttl < 1 || ttl > 21_600) return reply(400, '');
      const issued = randomBytes(24).toString('base64');
      this.tokens.add(issued);
      return reply(200, issued);
    }
    if (request.method !== 'GET') return reply(405, '');
    if (!withToken) return reply(401, '');
    const { roleName, credentials, rsa2048 } = this.options;
    if (path === '/latest/meta-data/iam/security-credentials/') return reply(200, roleName ?? '');
    if (roleName && credentials && path === `/latest/meta-data/iam/security-credentials/${roleName}`) {
      const issued = credentials();
      const document = {
        Code: 'Success',
        LastUpdated: new Date().toISOString(),
        Type: 'AWS-HMAC',
        AccessKeyId: issued.accessKeyId,
        SecretAccessKey: issued.secretAccessKey,
        Token: issued.sessionToken,
        Expiration: issued.expiration.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
      return reply(200, JSON.stringify(document, null, 2), 'application/json');
    }
    if (rsa2048 !== undefined && path === '/latest/dynamic/instance-identity/rsa2048') return reply(200, rsa2048);
    return reply(404, '');
  }
}
