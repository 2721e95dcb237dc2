import { JsonStore } from '../../core/store/stored-json.js';
import { systemClock } from '../../lib/clocks.js';
import { InvalidRequest } from '../../lib/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Storage } from '../../ports/storage.js';
import { ChangeFeed } from '../changes/change-feed.js';
import { StorageLayout } from '../documents/storage-layout.js';
import { unversionedFormat } from '../documents/unversioned-document.js';
import { kvContext, type KvContext } from '../operations/context.js';
import { DataOperations } from '../operations/data-operations.js';
import { CAS_MISMATCH } from '../rules/cas.js';
import type { Attribution } from '../rules/actors.js';
import { jsonEqual } from '../values/json-equal.js';
import { valueLimits } from '../values/value-limits.js';

/** Where the upgrade works: the storage and prefix a KvV1Engine served, which a KvEngine then serves. */
export interface KvUpgradeOptions {
  storage: Storage;
  /** The engines' `storagePrefix`; default 'kv/'. */
  storagePrefix?: string;
  /**
   * Defaults to the system clock: when the documents it writes were written, as the orphan reclaim reads them. The
   * versions themselves are dated when their version 1 data was last written.
   */
  clock?: Clock;
}

/** What one run of the upgrade did. */
export interface KvUpgradeResult {
  /** Keys this run moved; 0 when another run (in this process or another) had moved them all. */
  upgraded: number;
}

/** Vault's actor of the versions its upgrade writes. */
const UPGRADE: Attribution = () => ({ actor: 'kv_upgrade', operation: 'upgrade' });

/**
 * Whether `version` of the key already holds the data: then it was moved, and needs no new version; anything else (a
 * key a version 1 write changed since) gets one.
 */
async function holds(
  operations: DataOperations,
  path: string,
  version: number,
  data: Record<string, unknown>,
): Promise<boolean> {
  if (version === 0) return false;
  const read = await operations.read(path, version, (value) => value);
  return read.state === 'live' && jsonEqual(read.value, data);
}

/**
 * One key: its data becomes the next version of the version 2 key (version 1 for a key moved once), dated when it was
 * written, then its version 1 document goes, only if it still holds the bytes that were moved. Each step is conditional,
 * so a run killed between them, or racing another run or a version 1 write, is mended by running again: data already
 * moved is never moved twice, and a version 1 write that came in between is moved too rather than lost.
 */
async function upgradeKey(json: JsonStore, layout: StorageLayout, context: KvContext, path: string): Promise<boolean> {
  const key = layout.unversioned(path);
  for (;;) {
    const raw = await json.getRaw(key);
    if (raw === undefined) return false;
    const { data, written } = unversionedFormat.decode(raw, key);
    // A version dated when the key was written: the operations read the time from the context's clock.
    const operations = new DataOperations({ ...context, clock: { now: () => new Date(written) } });
    // The version the check and the write go by: a write another run commits after this read fails the cas.
    const current = (await context.keys.read(path))?.current_version ?? 0;
    if (!(await holds(operations, path, current, data))) {
      try {
        await operations.write(path, { data, options: { cas: current } }, UPGRADE);
      } catch (error) {
        // Another run moved it (or a version 2 write came) in between: look again.
        if (error instanceof InvalidRequest && error.message === CAS_MISMATCH) continue;
        throw error;
      }
    }
    if (await json.deleteIfUnchanged(key, raw)) return true;
  }
}

/**
 * Turns a KV version 1 engine's keys into KV version 2 keys on the same storage prefix, each key's data its version 1
 * (created_by `kv_upgrade`, as Vault's upgrade records it), so that a KvEngine with that prefix serves them. Resumable
 * and idempotent: a run that stopped midway (killed, or a storage failure, which rejects) is finished by running it
 * again, and a run over upgraded keys changes nothing. Several processes may run it at once over a storage with
 * compare-and-put (each key is moved once). It does not stop requests: serve the prefix with neither engine while it
 * runs (Vault answers them 400, "Upgrading from non-versioned to versioned data"), and with the KvEngine once it
 * resolves.
 */
export async function upgradeKvV1ToV2(options: KvUpgradeOptions): Promise<KvUpgradeResult> {
  if (!options || typeof options.storage !== 'object' || options.storage === null)
    throw new TypeError('upgradeKvV1ToV2 needs a storage');
  const layout = new StorageLayout(options.storagePrefix ?? 'kv/');
  const json = new JsonStore(options.storage);
  // Data a version 1 engine stored is moved as it is, whatever limit that engine had: nothing stored is refused.
  const limits = { ...valueLimits(undefined), maxBytes: Number.POSITIVE_INFINITY };
  const context = kvContext(json, layout, options.clock ?? systemClock, limits, new ChangeFeed(() => undefined));
  let upgraded = 0;
  for await (const path of json.keysBelow(layout.unversionedFolder(''))) {
    if (await upgradeKey(json, layout, context, path)) upgraded += 1;
  }
  return { upgraded };
}
