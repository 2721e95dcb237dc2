import type { KvChangeEvent } from './change-events.js';

/**
 * Delivers change events to subscribers, each event once and, per key, in revision order: an event whose revision is
 * not above the last one delivered for its key is dropped, so the same change learnt twice (from this process's commit
 * and from the storage's notification, or from a catch-up) reaches subscribers once. A revision below the last one of
 * a key that was removed starts the key's new life.
 */

export type KvChangeListener = (event: KvChangeEvent) => void;

interface Subscription {
  prefix: string;
  listener: KvChangeListener;
}

export class ChangeFeed {
  private readonly subscriptions = new Set<Subscription>();
  /** Per key: the last revision delivered, and whether that event removed the key. */
  private readonly delivered = new Map<string, { revision: number; removed: boolean }>();

  constructor(private readonly onListenerError: (error: unknown) => void) {}

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
        while (queue.length === 0 && !done && !options.signal?.aborted) await new Promise<void>((resolve) => (wake = resolve));
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

  /** Whether the feed has subscribers (watching other processes only pays off then). */
  get active(): boolean {
    return this.subscriptions.size > 0;
  }

  /** The last revision delivered for a key, if any. */
  lastRevision(path: string): number | undefined {
    const last = this.delivered.get(path);
    return last && !last.removed ? last.revision : undefined;
  }

  /** Delivers the events that are new, in the order given (callers give one key's events in revision order). */
  deliver(events: readonly KvChangeEvent[]): void {
    for (const event of events) {
      const last = this.delivered.get(event.path);
      if (last && !last.removed && event.revision <= last.revision) continue;
      if (last?.removed && event.revision <= last.revision && event.operation === 'metadata-delete') continue;
      this.delivered.set(event.path, { revision: event.revision, removed: event.operation === 'metadata-delete' });
      for (const { prefix, listener } of this.subscriptions) {
        if (!event.path.startsWith(prefix)) continue;
        try {
          listener(event);
        } catch (error) {
          // The change is committed whatever a listener does; its failure is the listener's to report.
          this.onListenerError(error);
        }
      }
    }
  }
}
