import { InvalidRequest } from '../../lib/errors.js';
import type { CloudScope } from '../../ports/cloud.js';
import type { AuthContext } from '../context/auth-context.js';
import { callCloud } from '../context/cloud-call.js';
import { clientConfigDocument, cloudClientSettings, readClientConfig, staticCredentials } from './client-config.js';

export interface RotationResult {
  accessKeyId: string;
  warnings: string[];
}

/**
 * Replaces the configured static access key with a new one of the same IAM user: GetUser, CreateAccessKey, store the
 * new pair (the commit point), then DeleteAccessKey of the old one. If the new key cannot be stored it is deleted
 * again and the configuration is unchanged (a store that took effect although it reported failure counts as stored);
 * if the old key cannot be deleted, the rotation stands and a warning says which key to delete by hand.
 */
export async function rotateRoot(context: AuthContext): Promise<RotationResult> {
  const config = staticCredentials(await readClientConfig(context));
  const scope: CloudScope = { settings: cloudClientSettings(config), region: context.env.CLOUD_REGION || 'us-east-1' };
  const user = await callCloud('error calling GetUser', () => context.cloud.getCurrentUser(scope));
  const created = await callCloud('error calling CreateAccessKey', () =>
    context.cloud.createAccessKey(scope, user.userName),
  );

  try {
    await context.update(clientConfigDocument, (current) => {
      if (current?.access_key !== config.access_key) {
        throw new InvalidRequest('config/client changed while the root credentials were being rotated; try again');
      }
      return { ...current, access_key: created.accessKeyId, secret_key: created.secretAccessKey };
    });
  } catch (error) {
    // A store can take effect and still report failure (its answer was lost). Deleting the new key then would leave
    // config/client naming a key that no longer exists, locking the engine out of the cloud: so look first.
    const stored = await storedAccessKey(context);
    if (stored !== created.accessKeyId) {
      // Best effort: the failed store is what the caller must see, and a key left behind (also when the check above
      // could not read) blocks nothing but the next rotation (IAM allows two keys per user).
      if (stored !== undefined)
        await context.cloud.deleteAccessKey(scope, user.userName, created.accessKeyId).catch(() => undefined);
      throw error;
    }
  }

  const warnings: string[] = [];
  try {
    await callCloud('error deleting the old access key', () =>
      context.cloud.deleteAccessKey(scope, user.userName, config.access_key),
    );
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unknown failure';
    warnings.push(
      `the new access key is stored, but the old access key ${config.access_key} was not deleted (${detail}); delete it manually`,
    );
  }
  return { accessKeyId: created.accessKeyId, warnings };
}

/** The access key config/client holds now; undefined when it cannot be read. */
async function storedAccessKey(context: AuthContext): Promise<string | undefined> {
  try {
    return (await readClientConfig(context))?.access_key ?? '';
  } catch {
    return undefined;
  }
}
