// Each webhook's durable queue of events still to deliver, and its dead letters: events whose last attempt failed.
// An event is keyed by its change time and its id, so a queue lists in the order the changes were made, and queueing
// the same change twice (after a crash between queueing and moving the cursor) writes nothing the second time.
import { unchanged, type JsonStore } from '../../core/store/stored-json.js';
import { WEBHOOKS_ROOT } from './webhook-store.js';

/** The body a receiver gets: the change, never a value. */
export interface WebhookEvent {
  id: string;
  webhook: string;
  mount: string;
  path: string;
  operation: string;
  version: number;
  revision: number;
  /** RFC 3339 UTC: when the change was committed. */
  time: string;
}

/** An event waiting in a queue, with its attempts so far. */
export interface QueuedEvent {
  /** Its key in the queue. */
  key: string;
  event: WebhookEvent;
  attempts: number;
  /** Epoch ms: not attempted before. */
  due: number;
  last_error?: string;
}

const outbox = (hook: string) => `${WEBHOOKS_ROOT}outbox/${hook}/`;
const dead = (hook: string) => `${WEBHOOKS_ROOT}dead/${hook}/`;

/** The queue key of an event: its change time, padded so keys sort by it, then its id. */
export const queueKey = (event: WebhookEvent) => `${String(Date.parse(event.time)).padStart(15, '0')}-${event.id}`;

export class DeliveryQueue {
  constructor(private readonly store: JsonStore) {}

  /** Queues an event unless it is queued already. */
  async add(event: WebhookEvent): Promise<void> {
    const key = queueKey(event);
    await this.store.update<QueuedEvent>(outbox(event.webhook) + key, (current) =>
      current ? unchanged : { key, event, attempts: 0, due: 0 },
    );
  }

  /** The keys of a webhook's queued events, oldest change first. */
  async pending(hook: string): Promise<string[]> {
    return (await this.store.list(outbox(hook))).sort();
  }

  read(hook: string, key: string): Promise<QueuedEvent | undefined> {
    return this.store.get<QueuedEvent>(outbox(hook) + key);
  }

  /** Rewrites a queued event; false, writing nothing, when it is no longer queued (delivered, or its webhook removed). */
  async save(hook: string, queued: QueuedEvent): Promise<boolean> {
    const { written } = await this.store.update<QueuedEvent>(outbox(hook) + queued.key, (current) =>
      current ? queued : unchanged,
    );
    return written;
  }

  delivered(hook: string, key: string): Promise<void> {
    return this.store.delete(outbox(hook) + key);
  }

  /** Moves an event that used up its attempts to the dead letters; written there before it leaves the queue. */
  async bury(hook: string, queued: QueuedEvent): Promise<void> {
    if (!(await this.store.get(outbox(hook) + queued.key))) return;
    await this.store.put(dead(hook) + queued.key, queued);
    await this.store.delete(outbox(hook) + queued.key);
  }

  async deadLetters(hook: string): Promise<QueuedEvent[]> {
    const keys = (await this.store.list(dead(hook))).sort();
    const found = await Promise.all(keys.map((key) => this.store.get<QueuedEvent>(dead(hook) + key)));
    return found.filter((entry): entry is QueuedEvent => entry !== undefined);
  }

  /** Puts the dead letters (those whose ids are given, or all) back in the queue with fresh attempts; answers how many. */
  async replay(hook: string, ids?: readonly string[]): Promise<number> {
    const chosen = (await this.deadLetters(hook)).filter((entry) => !ids || ids.includes(entry.event.id));
    for (const entry of chosen) {
      await this.store.put(outbox(hook) + entry.key, { key: entry.key, event: entry.event, attempts: 0, due: 0 });
      await this.store.delete(dead(hook) + entry.key);
    }
    return chosen.length;
  }

  /** Forgets a removed webhook's queue and dead letters. */
  async clear(hook: string): Promise<void> {
    for (const folder of [outbox(hook), dead(hook)])
      for (const key of await this.store.list(folder)) await this.store.delete(folder + key);
  }
}
