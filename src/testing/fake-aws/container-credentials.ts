/**
 * A local container credentials endpoint, as ECS (task roles) and EKS Pod Identity run one: a GET with the expected
 * Authorization header answers the role's temporary credentials as JSON; anything else is refused.
 *
 *   const endpoint = await FakeContainerCredentials.start({ authorizationToken: 'secret', credentials: () => aws.issueSessionCredentials({...}) });
 *   env.AWS_CONTAINER_CREDENTIALS_FULL_URI = endpoint.url + '/v1/credentials';
 */
import { timingSafeEqual } from 'node:crypto';
import { listenLocally, type LocalServer } from './listen.js';
import type { IssuedCredentials } from './state.js';

/** Options of `FakeContainerCredentials.start`. */
export interface FakeContainerCredentialsOptions {
  /** The Authorization header every request must carry; none required when absent (as ECS's relative URI). */
  authorizationToken?: string;
  /** Called on each accepted request for the credentials to answer, e.g. `() => aws.issueSessionCredentials({...})`. */
  credentials: () => IssuedCredentials;
}

/**
 * A fake container credentials endpoint (ECS task roles, EKS Pod Identity) on a loopback port; set
 * AWS_CONTAINER_CREDENTIALS_FULL_URI in the provider's `env` to a URL below its `url`.
 */
export class FakeContainerCredentials {
  /** Each request's path and status, in arrival order. */
  readonly requests: Array<{ path: string; status: number }> = [];
  private server: LocalServer | undefined;
  /** `http://127.0.0.1:<port>`, set by `start()`. */
  url = '';

  private constructor(private readonly options: FakeContainerCredentialsOptions) {}

  /** Listens on 127.0.0.1 at a free port; resolves once it does. */
  static async start(options: FakeContainerCredentialsOptions): Promise<FakeContainerCredentials> {
    const endpoint = new FakeContainerCredentials(options);
    endpoint.server = await listenLocally((request, response) => {
      request.resume();
      const status = endpoint.statusOf(request.method, request.headers.authorization);
      endpoint.requests.push({ path: request.url ?? '/', status });
      if (status !== 200)
        return void response.writeHead(status, { 'Content-Type': 'application/json' }).end('{"message":"refused"}');
      const issued = options.credentials();
      const body = {
        AccessKeyId: issued.accessKeyId,
        SecretAccessKey: issued.secretAccessKey,
        Token: issued.sessionToken,
        Expiration: issued.expiration.toISOString(),
      };
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    endpoint.url = endpoint.server.url;
    return endpoint;
  }

  /** Closes the server, dropping open connections. */
  async stop(): Promise<void> {
    await this.server?.stop();
  }

  private statusOf(method: string | undefined, authorization: string | undefined): number {
    if (method !== 'GET') return 405;
    const expected = this.options.authorizationToken;
    if (expected === undefined) return 200;
    const presented = Buffer.from(authorization ?? '');
    const wanted = Buffer.from(expected);
    return presented.length === wanted.length && timingSafeEqual(presented, wanted) ? 200 : 403;
  }
}
