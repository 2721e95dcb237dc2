/**
 * The base credential chain (CONTRACT): config/client's static keys, then CLOUD_ACCESS_KEY / CLOUD_SECRET_KEY /
 * CLOUD_SESSION_TOKEN from the `env` option, then the instance role from IMDSv2, refreshed before it expires.
 */
import { z } from 'zod';
import { CloudUnavailable } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { CloudClientSettings } from '../../ports/cloud.js';
import type { ImdsClient } from './imds.js';
import type { AwsCredentials } from './signing.js';

export type Environment = Record<string, string | undefined>;

/** Temporary credentials are replaced this long before they expire, so no call goes out with a dying key. */
const refreshMarginMs = 5 * 60_000;

/** Long-term keys never go stale; temporary ones do shortly before they expire. */
export function isFresh(credentials: AwsCredentials, clock: Clock): boolean {
  const { expiresAt } = credentials;
  return expiresAt === undefined || clock.now().getTime() < expiresAt.getTime() - refreshMarginMs;
}

const credentialsPath = '/latest/meta-data/iam/security-credentials/';

const instanceRoleDocument = z.object({
  Code: z.string().optional(),
  AccessKeyId: z.string().min(1),
  SecretAccessKey: z.string().min(1),
  Token: z.string().min(1),
  Expiration: z.iso.datetime({ offset: true }),
});

function environmentCredentials(env: Environment): AwsCredentials | undefined {
  const accessKeyId = env.CLOUD_ACCESS_KEY;
  const secretAccessKey = env.CLOUD_SECRET_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = env.CLOUD_SESSION_TOKEN;
  return { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) };
}

export class CredentialChain {
  private instanceRole: AwsCredentials | undefined;
  private pending: Promise<AwsCredentials> | undefined;

  constructor(
    private readonly env: Environment,
    private readonly imds: ImdsClient,
    private readonly clock: Clock,
  ) {}

  async resolve(settings: CloudClientSettings): Promise<AwsCredentials> {
    if (settings.accessKey || settings.secretKey) {
      if (!settings.accessKey || !settings.secretKey) {
        throw new CloudUnavailable('config/client has an access_key or a secret_key but not both');
      }
      return { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey };
    }
    return environmentCredentials(this.env) ?? this.instanceCredentials();
  }

  private async instanceCredentials(): Promise<AwsCredentials> {
    const cached = this.instanceRole;
    // Instance role credentials always carry an expiry.
    if (cached && isFresh(cached, this.clock)) return cached;
    // Concurrent callers share one refresh; a failure is not remembered.
    this.pending ??= this.fetchInstanceRole().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetchInstanceRole(): Promise<AwsCredentials> {
    let roleName: string | undefined;
    let document: unknown;
    try {
      roleName = (await this.imds.get(credentialsPath)).split('\n')[0]?.trim();
      if (!roleName) throw new CloudUnavailable('the instance has no IAM role');
      document = JSON.parse(await this.imds.get(`${credentialsPath}${encodeURIComponent(roleName)}`));
    } catch (error) {
      const reason = error instanceof SyntaxError ? 'unparsable role credentials' : (error as Error).message;
      throw new CloudUnavailable(
        `no cloud credentials: config/client has no access_key/secret_key, CLOUD_ACCESS_KEY and CLOUD_SECRET_KEY ` +
          `are not both set, and instance metadata failed: ${reason}`,
      );
    }
    const parsed = instanceRoleDocument.safeParse(document);
    if (!parsed.success || (parsed.data.Code !== undefined && parsed.data.Code !== 'Success')) {
      throw new CloudUnavailable(`instance metadata returned unusable credentials for role "${roleName}"`);
    }
    this.instanceRole = {
      accessKeyId: parsed.data.AccessKeyId,
      secretAccessKey: parsed.data.SecretAccessKey,
      sessionToken: parsed.data.Token,
      expiresAt: new Date(parsed.data.Expiration),
    };
    return this.instanceRole;
  }
}
