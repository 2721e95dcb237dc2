import { AuthMethod } from '../../adapters/aws/auth-method.js';
import { KvEngine } from '../../kv/index.js';
import type { MountTable } from './mount-table.js';

/**
 * The background work of every mount, one after another: each AWS auth mount's tidy, and each KV version 2 mount's
 * sweep of versions past destroy_version_after (every mount, not only `secret/`: reads already answer such versions
 * destroyed; the sweep removes their data within one run).
 */
export async function runMountPeriodic(table: MountTable): Promise<void> {
  for (const { engine } of await table.current()) {
    if (engine instanceof AuthMethod) await engine.periodic();
    if (engine instanceof KvEngine) await engine.sweepLifetimes();
  }
}
