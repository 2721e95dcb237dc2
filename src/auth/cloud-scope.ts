import type { CloudClientSettings, CloudScope } from '../ports/cloud.js';
import type { AuthContext } from './auth-context.js';
import { cloudClientSettings, readClientConfig } from './client-config.js';
import { readStsConfig, stsRoleBinding, type StsConfig } from './sts-config.js';

/** Where a cloud call acts: the resource's region and owning account. */
export interface CloudTarget {
  region?: string;
  accountId?: string;
}

export function buildCloudScope(settings: CloudClientSettings, target: CloudTarget, sts: StsConfig | undefined): CloudScope {
  const scope: CloudScope = { settings };
  if (target.region) scope.region = target.region;
  if (target.accountId) scope.accountId = target.accountId;
  if (sts) scope.stsRole = stsRoleBinding(sts);
  return scope;
}

/**
 * The scope for a call on a resource: the current config/client, and the account's config/sts role when one is
 * configured (without one the provider must check that its own credentials belong to the account, DECISIONS 11).
 */
export async function resolveCloudScope(context: AuthContext, target: CloudTarget): Promise<CloudScope> {
  const [config, sts] = await Promise.all([
    readClientConfig(context),
    target.accountId ? readStsConfig(context, target.accountId) : Promise.resolve(undefined),
  ]);
  return buildCloudScope(cloudClientSettings(config), target, sts);
}
