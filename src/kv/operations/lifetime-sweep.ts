import { CorruptDocument, unchanged } from '../../core/store/stored-json.js';
import { recordedChange } from '../changes/recorded-change.js';
import { destroy, expiredVersions } from '../rules/versions.js';
import { now, type KvContext } from './context.js';

/**
 * The sweep of destroy_version_after: every read already answers a version past its destruction time as destroyed;
 * this removes its data from storage, as a request to destroy it would (a `destroy` change event each). An engine where
 * no lifetime was ever set costs one read of its config; otherwise every key's head is read, and entry documents only
 * for keys keeping more versions than their head holds inline.
 *
 * Several processes may sweep one storage at once: each destruction is a change of the key like any other, committed
 * on the head it read, so of two sweeps the second finds nothing left to destroy and writes nothing.
 */

/** What one sweep did. */
export interface KvSweepResult {
  /** Versions whose data this sweep removed (another process's sweep may have removed others meanwhile). */
  destroyed: number;
}

export async function sweepLifetimes(context: KvContext): Promise<KvSweepResult> {
  const { keys } = context;
  // Until the config or a key has set a lifetime, no version has a destruction time: nothing to read.
  if (!(await context.config.read()).lifetimes_set) return { destroyed: 0 };
  let destroyed = 0;
  for await (const path of keys.keysBelow('')) {
    const time = now(context);
    let expired: number[];
    try {
      expired = await keys.consistent(async () => {
        const key = await keys.read(path);
        return key ? expiredVersions(await keys.versions(path, key), time) : [];
      });
    } catch (error) {
      // A corrupt key answers 500 to its own readers and must not stop the sweep of every other key.
      if (error instanceof CorruptDocument) continue;
      throw error;
    }
    if (expired.length === 0) continue;
    // Checked again on the head the change commits on: the key may have changed (or been deleted and written anew).
    const { result } = await recordedChange(
      context,
      path,
      'destroy',
      async (current) => {
        const numbers = current ? expiredVersions(current.versions, time) : [];
        const change = current && destroy(current, numbers);
        return change ? { ...change, result: numbers.length } : { next: unchanged, result: 0 };
      },
      expired,
    );
    destroyed += result;
  }
  return { destroyed };
}
