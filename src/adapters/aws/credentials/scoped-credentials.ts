/**
 * Which credentials a call for one CloudScope uses (decision 15): an account with an STS role gets that role's
 * temporary credentials (cached until shortly before they expire); any other account must be the provider's own,
 * which is learned once per partition with GetCallerIdentity and compared on every call. Every cache key carries a
 * fingerprint of the credentials and endpoints in force, and a change of that fingerprint drops the old entries.
 */
import { createHash } from 'node:crypto';
import { AuthenticationRefused } from '../../../lib/errors.js';
import type { Clock } from '../../../ports/clock.js';
import type { CloudClientSettings, CloudScope, StsRoleBinding } from '../../../ports/cloud.js';
import { isFresh, type CredentialChain } from './credentials.js';
import { partitionOfRegion, stsEndpoint } from '../api/endpoints.js';
import type { QueryApiClient, QueryTarget } from '../api/query-api.js';
import { retriesFrom } from '../api/retry.js';
import type { AwsCredentials } from '../api/signing.js';
import { cachedLoad } from '../api/single-flight.js';
import { assumeRole, getCallerIdentity } from '../api/sts.js';

export class ScopedCredentials {
  private fingerprint = '';
  private readonly ownAccounts = new Map<string, Promise<string>>();
  private readonly assumedRoles = new Map<string, Promise<AwsCredentials>>();

  constructor(
    private readonly chain: CredentialChain,
    private readonly api: QueryApiClient,
    private readonly clock: Clock,
  ) {}

  /** The provider's base credentials, whatever the scope's account. */
  base(settings: CloudClientSettings): Promise<AwsCredentials> {
    return this.chain.resolve(settings);
  }

  /** An STS target for `region`, signed with the base credentials. */
  async stsTarget(settings: CloudClientSettings, region: string): Promise<QueryTarget> {
    const credentials = await this.base(settings);
    const maxRetries = retriesFrom(settings.maxRetries);
    return { service: 'sts', endpoint: stsEndpoint(settings, region), credentials, maxRetries };
  }

  /** Credentials for acting on the scope's account in `region` (the call's region; STS runs there too). */
  async forScope(scope: CloudScope, region: string): Promise<AwsCredentials> {
    const credentials = await this.base(scope.settings);
    const generation = this.generationOf(scope.settings, credentials);
    if (scope.stsRole) return this.assumed(generation, scope, scope.stsRole, region);
    if (scope.accountId !== undefined) {
      const own = await this.ownAccount(generation, scope.settings, region);
      if (own !== scope.accountId) {
        throw new AuthenticationRefused(
          `no STS role is configured for account "${scope.accountId}" and the provider's credentials belong to ` +
            `account "${own}"; refusing to act for account "${scope.accountId}"`,
        );
      }
    }
    return credentials;
  }

  private ownAccount(generation: string, settings: CloudClientSettings, region: string): Promise<string> {
    const key = JSON.stringify([generation, partitionOfRegion(stsEndpoint(settings, region).region)]);
    return cachedLoad(
      this.ownAccounts,
      key,
      () => true,
      async () => {
        const identity = await getCallerIdentity(this.api, await this.stsTarget(settings, region));
        return identity.accountId;
      },
    );
  }

  private assumed(
    generation: string,
    scope: CloudScope,
    role: StsRoleBinding,
    region: string,
  ): Promise<AwsCredentials> {
    const sts = stsEndpoint(scope.settings, region);
    const key = JSON.stringify([generation, sts.url.href, sts.region, scope.accountId, role.roleArn, role.externalId]);
    return cachedLoad(
      this.assumedRoles,
      key,
      (credentials) => isFresh(credentials, this.clock),
      async () => {
        const sessionName = `strongroom-${this.clock.now().getTime()}`;
        return assumeRole(this.api, await this.stsTarget(scope.settings, region), role, sessionName);
      },
    );
  }

  /** Fingerprints what decides identity and endpoints; a new fingerprint empties the caches of the old one. */
  private generationOf(settings: CloudClientSettings, base: AwsCredentials): string {
    const { endpoint, iamEndpoint, stsEndpoint: sts, stsRegion } = settings;
    const material = [
      base.accessKeyId,
      base.secretAccessKey,
      base.sessionToken ?? '',
      endpoint,
      iamEndpoint,
      sts,
      stsRegion,
    ];
    const fingerprint = createHash('sha256').update(JSON.stringify(material)).digest('hex');
    if (fingerprint !== this.fingerprint) {
      this.fingerprint = fingerprint;
      this.ownAccounts.clear();
      this.assumedRoles.clear();
    }
    return fingerprint;
  }
}
