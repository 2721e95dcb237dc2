import { runGuarded } from '../../lib/calls.js';
import { RecentMap } from '../../lib/recent-map.js';
import { eventOf, type KeyChange, type KvChangeEvent } from './change-events.js';

/**
 * How many keys the feed remembers the last event of: the most recently changed (or acknowledged), removed ones
 * included. A change learnt twice is learnt close together, so the recent keys are the ones that matter. A key the feed
 * has forgotten is one it never saw: what its history holds is delivered, some of it possibly again, never lost.
 */
export const TRACKED_KEYS = 10_000;

/** May be async (a function returning void accepts one): a rejection is reported like a throw. */
export type KvChangeListener = (event: KvChangeEvent) => void;

/** What the feed knows of a key in its current life. */
interface Remembered {
  /** The newest revision delivered or acknowledged: a watched change at or below it is not new. */
  revision: number;
  version: number;
  /** Whether the newest event removed the key. */
  removed: boolean;
  /** The newest revision actually delivered in this life, if any: this process's own commit at or below it is not new. */
  sent?: number;
}

interface Subscription {
  prefix: string;
  listener: KvChangeListener;
}

/**
 * Delivers change events to subscribers, each event once and, per key, in revision order: an event whose revision is
 * not above the last one delivered for its key is dropped, so the same change learnt twice (from this process's commit
 * and from the storage's notification, or from a catch-up) reaches subscribers once, as long as the feed remembers the
 * key (TRACKED_KEYS). A revision below the last one of a key that was removed starts the key's new life.
 *
 * A watch's starting point (`acknowledge`) holds back only what the watch itself learns (`deliverWatched`), never this
 * process's own commits (`deliver`): a commit answered while the watch reads its starting point is in that starting
 * point, yet its event is still owed to the subscribers who were there when it was answered.
 */
export class ChangeFeed {
  private readonly subscriptions = new Set<Subscription>();
  /** Per key, in order of the last change: what the feed last learnt of it; see {@link Remembered}. */
  private readonly delivered = new RecentMap<string, Remembered>(TRACKED_KEYS);

  constructor(private readonly onEventError: (error: unknown) => void) {}

  subscribe(prefix: string, listener: KvChangeListener): () => void {
    const subscription = { prefix, listener };
    this.subscriptions.add(subscription);
    return () => {
      this.subscriptions.delete(subscription);
    };
  }

  /** The events of `prefix` as an async iterator; ending the iteration (break, return) unsubscribes. */
  events(prefix: string, options: { signal?: AbortSignal } = {}): AsyncIterableIterator<KvChangeEvent> {
    const queue: KvChangeEvent[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const unsubscribe = this.subscribe(prefix, (event) => {
      queue.push(event);
      wake?.();
    });
    const finish = () => {
      done = true;
      unsubscribe();
      wake?.();
    };
    options.signal?.addEventListener('abort', finish, { once: true });
    const iterator: AsyncIterableIterator<KvChangeEvent> = {
      async next() {
        while (queue.length === 0 && !done && !options.signal?.aborted)
          await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        const event = queue.shift();
        return event ? { value: event, done: false } : { value: undefined, done: true };
      },
      async return() {
        finish();
        queue.length = 0;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /** The last event delivered for a key that still exists, as far as this feed knows. */
  last(path: string): { revision: number; version: number } | undefined {
    const last = this.delivered.get(path);
    return last && !last.removed ? { revision: last.revision, version: last.version } : undefined;
  }

  /** What the feed remembers of a key: an object that each later event or acknowledgement of the key replaces. */
  remembered(path: string): object | undefined {
    return this.delivered.get(path);
  }

  /** Keys this feed knows to exist. */
  knownPaths(): string[] {
    return [...this.delivered].filter(([, last]) => !last.removed).map(([path]) => path);
  }

  /** Marks a key's changes up to `revision` as delivered without delivering them (a watch's starting point). */
  acknowledge(path: string, revision: number, version: number): void {
    const last = this.delivered.get(path);
    if (!last || last.removed) this.delivered.set(path, { revision, version, removed: false });
    else if (last.revision < revision) this.delivered.set(path, { ...last, revision, version });
  }

  /**
   * Delivers this process's own committed changes that are new, in the order given (callers give one key's changes in
   * revision order), each as one event that every listener of its key gets.
   */
  deliver(changes: readonly KeyChange[]): void {
    this.deliverNew(changes, 'own');
  }

  /** Delivers changes a watch learnt from the storage (another process's, or this one's announced back) that are new. */
  deliverWatched(changes: readonly KeyChange[]): void {
    this.deliverNew(changes, 'watched');
  }

  private deliverNew(changes: readonly KeyChange[], source: 'own' | 'watched'): void {
    for (const change of changes) {
      const last = this.delivered.get(change.path);
      if (last && !isNew(change, last, source)) continue;
      const removed = change.operation === 'metadata-delete';
      const floor = last && !last.removed ? last.revision : 0;
      this.delivered.set(change.path, {
        revision: Math.max(floor, change.revision),
        version: change.version,
        removed,
        sent: change.revision,
      });
      let event: KvChangeEvent | undefined;
      for (const { prefix, listener } of this.subscriptions) {
        if (!change.path.startsWith(prefix)) continue;
        event ??= eventOf(change);
        const delivered = event;
        // The change is committed whatever a listener does; its failure (a throw, or an async listener's rejection) is
        // the listener's to report.
        runGuarded(() => listener(delivered), this.onEventError);
      }
    }
  }
}

/** Whether `change` is news after `last`: for this process's own commit, only what was delivered counts as known. */
function isNew(change: KeyChange, last: Remembered, source: 'own' | 'watched'): boolean {
  if (last.removed) return change.revision > last.revision || change.operation !== 'metadata-delete';
  const known = source === 'own' ? (last.sent ?? 0) : last.revision;
  return change.revision > known;
}
