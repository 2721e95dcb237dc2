import type { CloudClientSettings, CloudScope } from '../../ports/cloud.js';
import type { AuthContext } from '../context/auth-context.js';
import { cloudClientSettings, readClientConfig, type ClientConfig } from './client-config.js';
import { readStsConfig, stsRoleBinding, type StsConfig } from './sts-config.js';

/** Where a cloud call acts: the resource's region and owning account. */
export interface CloudTarget {
  region?: string;
  accountId?: string;
}

export function buildCloudScope(
  settings: CloudClientSettings,
  target: CloudTarget,
  sts: StsConfig | undefined,
): CloudScope {
  const scope: CloudScope = { settings };
  if (target.region) scope.region = target.region;
  if (target.accountId) scope.accountId = target.accountId;
  if (sts) scope.stsRole = stsRoleBinding(sts);
  return scope;
}

/**
 * The scope for a call on a resource: the current config/client, and the account's config/sts role when one is
 * configured (without one the provider must check that its own credentials belong to the account, so that no client
 * cached for one account ever acts for another).
 */
export async function resolveCloudScope(context: AuthContext, target: CloudTarget): Promise<CloudScope> {
  return new CloudScopes(context).resolve(target);
}

/**
 * The scopes of one operation (a login, a renewal, a role write) that may call the cloud several times: config/client
 * and each account's config/sts are read at most once, so the calls also see one configuration.
 */
export class CloudScopes {
  #clientConfig: Promise<ClientConfig | undefined> | undefined;
  readonly #stsConfigs = new Map<string, Promise<StsConfig | undefined>>();

  constructor(private readonly context: AuthContext) {}

  clientConfig(): Promise<ClientConfig | undefined> {
    return (this.#clientConfig ??= readClientConfig(this.context));
  }

  async resolve(target: CloudTarget): Promise<CloudScope> {
    const [config, sts] = await Promise.all([
      this.clientConfig(),
      target.accountId ? this.#stsConfig(target.accountId) : undefined,
    ]);
    return buildCloudScope(cloudClientSettings(config), target, sts);
  }

  #stsConfig(accountId: string): Promise<StsConfig | undefined> {
    let config = this.#stsConfigs.get(accountId);
    if (!config) this.#stsConfigs.set(accountId, (config = readStsConfig(this.context, accountId)));
    return config;
  }
}
