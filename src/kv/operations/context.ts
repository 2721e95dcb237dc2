import type { Clock } from '../../ports/clock.js';
import type { ChangeFeed } from '../changes/change-feed.js';
import type { ConfigStore } from '../store/config-store.js';
import type { KeyPages } from '../store/key-pages.js';
import type { KeyStore } from '../store/key-store.js';
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
