/**
 * The provider's base credential chain, first source with credentials wins: config/client's static keys; the CLOUD_*
 * variables; AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN); the shared config and credentials files
 * (AWS_PROFILE, else `default`); web identity (AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN); container credentials
 * (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI); the instance role from IMDSv2. A source that is configured
 * but fails is reported as the failure, never skipped, so a broken setup cannot silently act as another identity.
 * Temporary credentials are kept until shortly before they expire, and one refresh serves every concurrent caller.
 */
import { createHash } from 'node:crypto';
import { CloudUnavailable } from '../../../lib/errors.js';
import { runGuarded } from '../../../lib/calls.js';
import type { Clock } from '../../../ports/clock.js';
import type { CloudClientSettings } from '../../../ports/cloud.js';
import { containerCredentials, containerEndpointOf } from './container-credentials.js';
import {
  defaultRegionOf,
  type CredentialSourceName,
  type Environment,
  type SourceContext,
  type SourcedCredentials,
} from './credential-source.js';
import { awsEnvCredentials, cloudEnvCredentials } from './env-credentials.js';
import type { ImdsClient } from '../api/imds.js';
import { instanceRoleCredentials } from './instance-role.js';
import { profileCredentials, type CredentialSources } from './profile-credentials.js';
import type { QueryApiClient } from '../api/query-api.js';
import { readSharedFiles } from './shared-config-files.js';
import type { AwsCredentials } from '../api/signing.js';
import { cachedLoad } from '../api/single-flight.js';
import { webIdentityCredentials } from './web-identity.js';

export type { Environment } from './credential-source.js';

/** Temporary credentials are replaced this long before they expire, so no call goes out with a dying key. */
const refreshMarginMs = 5 * 60_000;

/** Long-term keys never go stale; temporary ones do shortly before they expire. */
export function isFresh(credentials: AwsCredentials, clock: Clock): boolean {
  const { expiresAt } = credentials;
  return expiresAt === undefined || clock.now().getTime() < expiresAt.getTime() - refreshMarginMs;
}

/** What the debug hook hears: which source answered and when its credentials expire; never a key or secret. */
export interface CredentialEvent {
  source: CredentialSourceName;
  /** The profile, role ARN or endpoint used, when the source has one. */
  detail?: string;
  /** True when the credentials were just fetched (first use or refresh), false when a cached set was reused. */
  fetched: boolean;
  /** When the credentials stop working; absent for long-term keys. */
  expiresAt?: Date;
}

export interface CredentialChainOptions {
  env: Environment;
  api: QueryApiClient;
  imds: ImdsClient;
  clock: Clock;
  fetch: typeof fetch;
  localTimeoutMs: number;
  /** Base URL for AWS_CONTAINER_CREDENTIALS_RELATIVE_URI; ECS's 169.254.170.2 unless a test points it elsewhere. */
  containerEndpoint: string;
  onCredentials?: (event: CredentialEvent) => void;
}

const fingerprint = (material: unknown) => createHash('sha256').update(JSON.stringify(material)).digest('hex');

export class CredentialChain {
  private readonly loaded = new Map<string, Promise<SourcedCredentials>>();
  private lastReported = '';

  constructor(private readonly options: CredentialChainOptions) {}

  async resolve(settings: CloudClientSettings): Promise<AwsCredentials> {
    const found = await this.find(settings);
    this.report(found.sourced, found.fetched);
    return found.sourced.credentials;
  }

  private async find(settings: CloudClientSettings): Promise<{ sourced: SourcedCredentials; fetched: boolean }> {
    const now = (sourced: SourcedCredentials) => ({ sourced, fetched: false });
    if (settings.accessKey || settings.secretKey) {
      if (!settings.accessKey || !settings.secretKey) {
        throw new CloudUnavailable('config/client has an access_key or a secret_key but not both');
      }
      return now({
        source: 'config/client',
        credentials: { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey },
      });
    }
    const { env } = this.options;
    const fromCloud = cloudEnvCredentials(env);
    if (fromCloud) return now({ source: 'env:CLOUD', credentials: fromCloud });
    const fromAws = awsEnvCredentials(env);
    if (fromAws) return now({ source: 'env:AWS', credentials: fromAws });

    const context = this.contextFor(settings);
    const files = await readSharedFiles(env);
    const profileName = env.AWS_PROFILE || env.AWS_DEFAULT_PROFILE || 'default';
    // A profile asked for by name must exist; `default` is only used when present.
    if (files.profiles.has(profileName) || profileName !== 'default') {
      return this.cached(['profile', profileName, files.contents, settings.stsEndpoint], async () => ({
        source: 'shared-config',
        detail: `profile ${profileName}`,
        credentials: await profileCredentials(context, files, profileName, this.sourcesFor(context)),
      }));
    }
    if (env.AWS_WEB_IDENTITY_TOKEN_FILE && env.AWS_ROLE_ARN) {
      const role = {
        tokenFile: env.AWS_WEB_IDENTITY_TOKEN_FILE,
        roleArn: env.AWS_ROLE_ARN,
        region: defaultRegionOf(env),
        ...(env.AWS_ROLE_SESSION_NAME && { sessionName: env.AWS_ROLE_SESSION_NAME }),
      };
      return this.cached(['web-identity', role, settings.stsEndpoint], async () => ({
        source: 'web-identity',
        detail: role.roleArn,
        credentials: await this.labelled(
          'web identity (AWS_WEB_IDENTITY_TOKEN_FILE)',
          webIdentityCredentials(context, role),
        ),
      }));
    }
    if (containerEndpointOf(env, this.options.containerEndpoint)) {
      return this.cached(['container'], async () => ({
        source: 'container',
        credentials: await this.sourcesFor(context).container(),
      }));
    }
    return this.cached(['instance-metadata'], async () => ({
      source: 'instance-metadata',
      credentials: await this.labelled(
        'no cloud credentials: config/client has no access_key/secret_key; neither CLOUD_ACCESS_KEY/CLOUD_SECRET_KEY ' +
          `nor AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY are set; no profile "default" in ${files.paths.join(' or ') || 'shared files (HOME unset)'}; ` +
          'no web identity or container credentials are configured; and the last source',
        instanceRoleCredentials(this.options.imds),
      ),
    }));
  }

  private sourcesFor(context: SourceContext): CredentialSources {
    return {
      container: () => {
        const url = containerEndpointOf(context.env, this.options.containerEndpoint);
        if (!url) throw new CloudUnavailable('credential_source EcsContainer, but no container credentials URI is set');
        return this.labelled('container credentials', containerCredentials(context, url));
      },
      instanceMetadata: () => instanceRoleCredentials(this.options.imds),
    };
  }

  private async labelled(label: string, pending: Promise<AwsCredentials>): Promise<AwsCredentials> {
    try {
      return await pending;
    } catch (error) {
      throw new CloudUnavailable(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** One fetch per key at a time; reused until shortly before expiry. */
  private async cached(
    keyMaterial: unknown[],
    load: () => Promise<SourcedCredentials>,
  ): Promise<{ sourced: SourcedCredentials; fetched: boolean }> {
    let fetched = false;
    const sourced = await cachedLoad(
      this.loaded,
      fingerprint(keyMaterial),
      (value) => isFresh(value.credentials, this.options.clock),
      () => {
        fetched = true;
        return load();
      },
    );
    return { sourced, fetched };
  }

  private contextFor(settings: CloudClientSettings): SourceContext {
    const { env, api, clock, fetch, localTimeoutMs } = this.options;
    return { env, settings, api, clock, fetch, localTimeoutMs };
  }

  private report(sourced: SourcedCredentials, fetched: boolean): void {
    const { onCredentials } = this.options;
    if (!onCredentials) return;
    const tag = `${sourced.source}\u0000${sourced.detail ?? ''}`;
    if (!fetched && tag === this.lastReported) return;
    this.lastReported = tag;
    const { expiresAt } = sourced.credentials;
    // A debug hook: its failure must not fail the cloud call it reports on.
    runGuarded(() =>
      onCredentials({
        source: sourced.source,
        ...(sourced.detail && { detail: sourced.detail }),
        fetched,
        ...(expiresAt && { expiresAt }),
      }),
    );
  }
}
