import type { JsonStore } from '../../core/store/stored-json.js';
import type { Clock } from '../../ports/clock.js';
import type { ChangeFeed } from '../changes/change-feed.js';
import type { StorageLayout } from '../documents/storage-layout.js';
import { ConfigStore } from '../store/config-store.js';
import { KeyPages } from '../store/key-pages.js';
import { KeyStore } from '../store/key-store.js';
import type { ValueLimits } from '../values/value-limits.js';

/** What the engine's operations share. */
export interface KvContext {
  readonly keys: KeyStore;
  readonly pages: KeyPages;
  readonly config: ConfigStore;
  readonly clock: Clock;
  /** What a version's data may be: every write and patch result is checked against them. */
  readonly limits: ValueLimits;
  readonly feed: ChangeFeed;
}

export function now(context: KvContext): number {
  return context.clock.now().getTime();
}

/** The context of the operations on the version 2 records below `layout`'s prefix. */
export function kvContext(
  json: JsonStore,
  layout: StorageLayout,
  clock: Clock,
  limits: ValueLimits,
  feed: ChangeFeed,
): KvContext {
  return {
    keys: new KeyStore(json, layout, () => clock.now().getTime()),
    pages: new KeyPages(json.storage, (folder) => layout.metadataFolder(folder)),
    config: new ConfigStore(json, layout),
    clock,
    limits,
    feed,
  };
}
