import { AuthenticationRefused } from '../../../lib/errors.js';
import type { CloudScope, InstanceDescription } from '../../../ports/cloud.js';
import type { AuthContext } from '../../context/auth-context.js';
import { callCloud } from '../../context/cloud-call.js';

/**
 * DescribeInstances for the instance a login names (as in Vault), which must exist in the expected account and be
 * running. Refusals are AuthenticationRefused (403) prefixed with `what`; a provider that cannot be asked keeps
 * callCloud's class (502 when unreachable). The description, not the identity document, is the source of every
 * attribute the bound constraints check.
 */
export async function describeRunningInstance(
  context: AuthContext,
  scope: CloudScope,
  instanceId: string,
  accountId: string,
  what: string,
): Promise<InstanceDescription> {
  const refused = (detail: string) => new AuthenticationRefused(`${what}: ${detail}`);
  const instance = await callCloud(what, () => context.cloud.describeInstance(scope, instanceId));
  if (!instance) throw refused('no instance details found in reservations');
  if (instance.instanceId !== instanceId)
    throw refused('expected instance ID not matching the instance ID in the instance description');
  // The provider already acts for this account only; the owner check makes that independent of it.
  if (instance.accountId !== accountId)
    throw refused(`the instance belongs to account ${JSON.stringify(instance.accountId)}`);
  if (instance.state !== 'running') throw refused("instance is not in 'running' state");
  return instance;
}
