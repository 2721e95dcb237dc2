// The webhooks of a server: what sys/webhooks reads and writes, over the stored definitions and queues, and the
// deliverer that sends them. Built once per server over its storage; the deliverer runs until `stop()`.
import { InvalidRequest, NotFound } from '../../lib/errors.js';
import type { JsonStore } from '../../core/store/stored-json.js';
import type { Clock } from '../../ports/clock.js';
import { KvEngine } from '../../kv/index.js';
import type { MountTable } from '../mounts/mount-table.js';
import { ChangeCursor } from './change-cursor.js';
import { DelivererLease } from './deliverer-lease.js';
import { deliverySettings, type WebhookDeliveryOptions } from './delivery-options.js';
import { DeliveryQueue, type QueuedEvent } from './delivery-queue.js';
import { TargetPolicy } from './target-policy.js';
import {
  checkName,
  eventsOf,
  mountPathOf,
  webhookInput,
  webhookView,
  type StoredWebhook,
} from './webhook-definition.js';
import { WebhookDeliverer } from './webhook-deliverer.js';
import { WebhookStore } from './webhook-store.js';

export interface WebhookServices {
  store: JsonStore;
  clock: Clock;
  /** The operator's exceptions to the refusal of internal targets: host names, addresses and CIDRs. */
  allow: readonly string[];
  delivery: WebhookDeliveryOptions | undefined;
  table: MountTable;
  note: (level: 'info' | 'warn', message: string, detail: Record<string, unknown>) => void;
}

export class Webhooks {
  private readonly hooks: WebhookStore;
  private readonly queue: DeliveryQueue;
  private readonly policy: TargetPolicy;
  private readonly deliverer: WebhookDeliverer;

  /** Refuses a bad allow list or delivery option at once, a TypeError naming it. */
  constructor(private readonly services: WebhookServices) {
    const { store, clock } = services;
    const settings = deliverySettings(services.delivery);
    const now = () => clock.now().getTime();
    this.hooks = new WebhookStore(store);
    this.queue = new DeliveryQueue(store);
    this.policy = new TargetPolicy(services.allow);
    this.deliverer = new WebhookDeliverer({
      ...services,
      engineAt: (mount) => this.engineAt(mount),
      hooks: this.hooks,
      queue: this.queue,
      cursor: new ChangeCursor(store, now),
      lease: new DelivererLease(store, now, settings.leaseMs),
      policy: this.policy,
      settings,
    });
  }

  start(): void {
    this.deliverer.start();
  }

  stop(): Promise<void> {
    return this.deliverer.stop();
  }

  names(): Promise<string[]> {
    return this.hooks.names();
  }

  async exists(name: string): Promise<boolean> {
    return (await this.hooks.read(name)) !== undefined;
  }

  async read(name: string) {
    return webhookView(await this.found(name));
  }

  /** Creates the webhook, or changes the fields given of an existing one (the secret is kept unless given). */
  async write(name: string, body: unknown): Promise<void> {
    checkName(name);
    const input = webhookInput(body);
    const existing = await this.hooks.read(name);
    const url = input.url ?? existing?.url;
    const mount = input.mount ?? existing?.mount;
    const secret = input.secret ?? existing?.secret;
    if (url === undefined || mount === undefined || secret === undefined)
      throw new InvalidRequest('a new webhook needs "url", "mount" and "secret"');
    await this.policy.check(this.policy.parse(url));
    const mountPath = mountPathOf(mount);
    if (!(await this.engineAt(mountPath)))
      throw new InvalidRequest(`"mount": no KV version 2 mount at ${JSON.stringify(mountPath)}`);
    const hook: StoredWebhook = {
      name,
      url,
      mount: mountPath,
      prefix: (input.prefix ?? existing?.prefix ?? '').replace(/^\/+/, ''),
      events: input.events === undefined ? (existing?.events ?? eventsOf(undefined)) : eventsOf(input.events),
      secret,
      created: existing?.created ?? this.services.clock.now().getTime(),
    };
    await this.hooks.write(hook);
  }

  /** Removes the webhook with its queue and dead letters; removing one that does not exist does nothing, as in Vault. */
  async remove(name: string): Promise<void> {
    await this.hooks.remove(name);
    await this.queue.clear(name);
  }

  /** The events whose last attempt failed, oldest change first. */
  async deadLetters(name: string) {
    await this.found(name);
    return (await this.queue.deadLetters(name)).map(deadLetterView);
  }

  /** Queues the dead letters again (those whose ids are given, or all); answers how many. */
  async replay(name: string, ids: readonly string[] | undefined): Promise<number> {
    await this.found(name);
    return this.queue.replay(name, ids);
  }

  /** The KV version 2 engine mounted at exactly `mount`, if one is. */
  private async engineAt(mount: string): Promise<KvEngine | undefined> {
    const found = (await this.services.table.current()).find((candidate) => candidate.prefix === mount);
    return found?.engine instanceof KvEngine ? found.engine : undefined;
  }

  private async found(name: string): Promise<StoredWebhook> {
    const hook = await this.hooks.read(checkName(name));
    if (!hook) throw new NotFound(`no webhook ${JSON.stringify(name)}`);
    return hook;
  }
}

function deadLetterView(entry: QueuedEvent) {
  return { event: entry.event, attempts: entry.attempts, last_error: entry.last_error ?? '' };
}
