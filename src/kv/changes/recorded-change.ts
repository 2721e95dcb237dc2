import { unchanged } from '../../core/store/stored-json.js';
import type { Clock } from '../../ports/clock.js';
import type { ChangeFeed } from './change-feed.js';
import { HISTORY, keyChange } from './change-events.js';
import type { ChangeFunction, Committed } from '../store/key-change.js';
import type { KeyStore } from '../store/key-store.js';
import type { KvChangeOperation, StoredChange } from '../documents/head-document.js';

/**
 * What recording a change needs of the engine: the key store that commits it, the feed that delivers its event and the
 * clock that dates it (the operations pass their KvContext).
 */
export interface Recording {
  readonly keys: KeyStore;
  readonly feed: ChangeFeed;
  readonly clock: Clock;
}

/**
 * Runs a key change that records itself: the record the change commits carries the change in its history, with the
 * revision the key store gives that commit (one more than the record it replaces). Answers the commit and the events
 * it made (none when the change wrote nothing).
 */
export async function recordedChange<R>(
  context: Recording,
  path: string,
  operation: KvChangeOperation,
  change: ChangeFunction<R>,
  versions?: readonly number[],
): Promise<Committed<R>> {
  const time = context.clock.now().getTime();
  let made: StoredChange | undefined;
  const committed = await context.keys.change(
    path,
    async (current, stage) => {
      const outcome = await change(current, stage);
      if (outcome.next === unchanged || outcome.next === undefined) {
        made = undefined;
        return outcome;
      }
      made = { operation, version: outcome.next.current_version, revision: (current?.revision ?? 0) + 1, time };
      const history = [...(current?.changes ?? []), made].slice(-HISTORY);
      return { ...outcome, next: { ...outcome.next, changes: history } };
    },
    versions,
  );
  if (made && committed.stored) context.feed.deliver([keyChange(path, made)]);
  return committed;
}
