import { runGuarded } from '../../lib/guarded-callback.js';
import { eventOf, type KeyChange, type KvChangeEvent } from './change-events.js';

/**
 * How many keys the feed remembers the last event of: the most recently changed (or acknowledged), removed ones
 * included. A change learnt twice is learnt close together, so the recent keys are the ones that matter. A key the feed
 * has forgotten is one it never saw: what its history holds is delivered, some of it possibly again, never lost.
 */
export const TRACKED_KEYS = 10_000;

/** May be async (a function returning void accepts one): a rejection is reported like a throw. */
export type KvChangeListener = (event: KvChangeEvent) => void;

interface Subscription {
  prefix: string;
  listener: KvChangeListener;
}

/**
 * Delivers change events to subscribers, each event once and, per key, in revision order: an event whose revision is
 * not above the last one delivered for its key is dropped, so the same change learnt twice (from this process's commit
 * and from the storage's notification, or from a catch-up) reaches subscribers once, as long as the feed remembers the
 * key (TRACKED_KEYS). A revision below the last one of a key that was removed starts the key's new life.
 */
export class ChangeFeed {
  private readonly subscriptions = new Set<Subscription>();
  /** Per key: the last revision delivered, and whether that event removed the key; in order of the last change. */
  private readonly delivered = new Map<string, { revision: number; version: number; removed: boolean }>();

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
    return last && !last.removed ? last : undefined;
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
    if (!last || last.removed || last.revision < revision) this.remember(path, { revision, version, removed: false });
  }

  /**
   * Delivers the changes that are new, in the order given (callers give one key's changes in revision order), each as
   * one event that every listener of its key gets.
   */
  deliver(changes: readonly KeyChange[]): void {
    for (const change of changes) {
      const last = this.delivered.get(change.path);
      if (last && !last.removed && change.revision <= last.revision) continue;
      if (last?.removed && change.revision <= last.revision && change.operation === 'metadata-delete') continue;
      this.remember(change.path, {
        revision: change.revision,
        version: change.version,
        removed: change.operation === 'metadata-delete',
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

  /** Records a key's last event as its newest entry, forgetting the key changed longest ago past TRACKED_KEYS. */
  private remember(path: string, last: { revision: number; version: number; removed: boolean }): void {
    this.delivered.delete(path);
    this.delivered.set(path, last);
    if (this.delivered.size > TRACKED_KEYS) this.delivered.delete(this.delivered.keys().next().value!);
  }
}
