// The deliverer: while this process holds the lease, it queues the changes past the durable cursor of every watched
// key (those change events announce at once, and all of them at each scan), then sends each webhook's due events.
// Webhooks are sent to independently, one event at a time each, so a slow receiver delays only its own webhook.
import type { Clock } from '../../ports/clock.js';
import type { KvEngine } from '../../kv/index.js';
import type { ChangeCursor, FoundChange } from './change-cursor.js';
import type { DelivererLease } from './deliverer-lease.js';
import { deliver } from './delivery.js';
import { backoff, type DeliverySettings } from './delivery-options.js';
import type { DeliveryQueue, QueuedEvent, WebhookEvent } from './delivery-queue.js';
import type { TargetPolicy } from './target-policy.js';
import type { StoredWebhook } from './webhook-definition.js';
import type { WebhookStore } from './webhook-store.js';

export interface DelivererServices {
  hooks: WebhookStore;
  queue: DeliveryQueue;
  cursor: ChangeCursor;
  lease: DelivererLease;
  policy: TargetPolicy;
  clock: Clock;
  settings: DeliverySettings;
  /** The KV v2 engine mounted at exactly `mount`, if one is. */
  engineAt: (mount: string) => Promise<KvEngine | undefined>;
  /** Taking the lease (info); a failed attempt, a dead letter or a fault (warn): never the secret or the URL. */
  note: (level: 'info' | 'warn', message: string, detail: Record<string, unknown>) => void;
}

const keyOf = (mount: string, path: string) => JSON.stringify([mount, path]);

/** The webhooks one round works for, and when they were read (epoch ms). */
interface Round {
  all: readonly StoredWebhook[];
  listed: number;
}

export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private nextScan = 0;
  /** Keys change events named since the last tick, as [mount, path]. */
  private readonly announced = new Set<string>();
  private readonly watched = new Map<string, { engine: KvEngine; stop: () => void }>();
  private readonly draining = new Set<string>();

  constructor(private readonly services: DelivererServices) {}

  /** Runs a round every pollMs, each after the last has ended, so that rounds never overlap. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const next = () => {
      this.timer = setTimeout(
        () => void this.round().then(() => this.running && next()),
        this.services.settings.pollMs,
      );
      this.timer.unref();
    };
    next();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    for (const { stop } of this.watched.values()) stop();
    this.watched.clear();
    await this.services.lease.release();
  }

  /** One round: renew the lease, queue what changed, start sending where nothing is being sent. */
  private async round(): Promise<void> {
    const { lease, hooks, clock, settings } = this.services;
    try {
      // Keys announced from here on are read in the next round; changes after `listed` wait for it too (ChangeCursor).
      const announced = [...this.announced].map((key) => JSON.parse(key) as [string, string]);
      this.announced.clear();
      const listed = clock.now().getTime();
      const all = await hooks.all();
      // With no webhook there is nothing to deliver: no process holds or renews the lease, so an idle server writes
      // nothing to storage every pollMs, and the first webhook created (by any process) starts a holder again.
      if (all.length === 0) {
        await this.idle();
        return;
      }
      const wasHeld = lease.held;
      if (!(await lease.acquire())) {
        this.announced.clear();
        return;
      }
      if (!wasHeld) {
        this.nextScan = 0;
        this.services.note('info', 'took the webhook deliverer lease', {});
      }
      const mounts = await this.watch(all);
      const round = { all, listed };
      if (listed >= this.nextScan) {
        this.nextScan = listed + settings.scanMs;
        for (const [mount, engine] of mounts) await this.scan(mount, engine, round);
      } else {
        for (const [mount, path] of announced) {
          const engine = mounts.get(mount);
          if (engine) await this.collect(mount, engine, path, round);
        }
      }
      for (const hook of all) if (!this.draining.has(hook.name)) void this.drain(hook.name);
    } catch (error) {
      this.services.note('warn', 'webhook deliverer failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Stops watching and gives the lease up, if this process held it. */
  private async idle(): Promise<void> {
    await this.watch([]);
    if (this.services.lease.held) await this.services.lease.release();
  }

  /** Subscribes to the change events of every mount a webhook names; answers those mounts' engines. */
  private async watch(all: readonly StoredWebhook[]): Promise<Map<string, KvEngine>> {
    const mounts = new Map<string, KvEngine>();
    for (const mount of new Set(all.map((hook) => hook.mount))) {
      const engine = await this.services.engineAt(mount);
      if (engine) mounts.set(mount, engine);
    }
    for (const [mount, { engine, stop }] of this.watched)
      if (mounts.get(mount) !== engine) {
        stop();
        this.watched.delete(mount);
      }
    for (const [mount, engine] of mounts)
      if (!this.watched.has(mount))
        this.watched.set(mount, {
          engine,
          stop: engine.subscribe('', (event) => void this.announced.add(keyOf(mount, event.path))),
        });
    return mounts;
  }

  /** Every key below the webhooks' prefixes, and every key the cursor knows (a removed key among them). */
  private async scan(mount: string, engine: KvEngine, round: Round): Promise<void> {
    const prefixes = round.all.filter((hook) => hook.mount === mount).map((hook) => hook.prefix);
    const covered = (path: string) => prefixes.some((prefix) => path.startsWith(prefix));
    const seen = new Set<string>();
    for (const folder of new Set(prefixes.map((prefix) => prefix.slice(0, prefix.lastIndexOf('/') + 1)))) {
      for (let after: string | undefined; ;) {
        const page = await engine.scan(folder, { limit: 500, ...(after === undefined ? {} : { after }) });
        for (const name of page) seen.add(folder + name);
        if (page.length < 500) break;
        after = page.at(-1);
      }
    }
    for await (const path of this.services.cursor.known(mount)) seen.add(path);
    let read = 0;
    for (const path of [...seen].filter(covered)) {
      // A long scan renews the lease as it goes, and stops where the lease was lost: the next holder scans again.
      if (++read % 200 === 0 && !(await this.services.lease.acquire())) return;
      await this.collect(mount, engine, path, round);
    }
  }

  /** Queues the key's changes past the cursor for each webhook that wants them, then moves the cursor. */
  private async collect(mount: string, engine: KvEngine, path: string, round: Round): Promise<void> {
    const { changes, later, advance } = await this.services.cursor.pending(mount, engine, path, round.listed);
    for (const change of changes)
      for (const hook of round.all)
        if (wants(hook, mount, change)) await this.services.queue.add(eventFor(hook, mount, change));
    await advance();
    if (later) this.announced.add(keyOf(mount, path));
  }

  /** Sends the webhook's due events in order, while the lease is held. */
  private async drain(name: string): Promise<void> {
    const { queue, lease, clock, hooks, note } = this.services;
    this.draining.add(name);
    try {
      for (const key of await queue.pending(name)) {
        // Read again for each event: the webhook may have been changed or removed meanwhile.
        const [hook, queued] = await Promise.all([hooks.read(name), queue.read(name, key)]);
        if (!hook || !lease.held || !this.running) return;
        if (queued && queued.due <= clock.now().getTime()) await this.attempt(hook, queued);
      }
    } catch (error) {
      note('warn', 'webhook delivery failed', { webhook: name, error: error instanceof Error ? error.message : '' });
    } finally {
      this.draining.delete(name);
    }
  }

  /** One attempt at one event: delivered, to be retried after its backoff, or a dead letter after the last attempt. */
  private async attempt(hook: StoredWebhook, queued: QueuedEvent): Promise<void> {
    const { queue, clock, settings, policy, note } = this.services;
    const now = clock.now().getTime();
    const attempts = queued.attempts + 1;
    const retry = { ...queued, attempts, due: now + backoff(settings, attempts) };
    // Counted before it is made: an attempt a crash cuts short still counts, and waits its backoff.
    if (!(await queue.save(hook.name, retry))) return;
    const body = JSON.stringify(queued.event);
    const timestamp = Math.floor(now / 1000);
    const request = { url: hook.url, secret: hook.secret, eventId: queued.event.id, body, timestamp };
    const outcome = await deliver(policy, request, settings.timeoutMs);
    if (outcome.ok) return queue.delivered(hook.name, queued.key);
    const failed = { ...retry, last_error: outcome.error };
    const detail = { webhook: hook.name, event_id: queued.event.id, attempts, error: outcome.error };
    if (attempts >= settings.attempts) {
      await queue.bury(hook.name, failed);
      note('warn', 'webhook event moved to the dead letters', detail);
    } else {
      await queue.save(hook.name, failed);
      note('warn', 'webhook delivery failed; will retry', detail);
    }
  }
}

function wants(hook: StoredWebhook, mount: string, change: FoundChange): boolean {
  return (
    hook.mount === mount &&
    change.path.startsWith(hook.prefix) &&
    hook.events.includes(change.operation) &&
    Date.parse(change.time) >= hook.created
  );
}

function eventFor(hook: StoredWebhook, mount: string, change: FoundChange): WebhookEvent {
  const { id, path, operation, version, revision, time } = change;
  return { id, webhook: hook.name, mount, path, operation, version, revision, time };
}
