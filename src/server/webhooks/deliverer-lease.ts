// One deliverer at a time across the processes over one storage: a lease document taken and renewed with a
// compare-and-put, which lapses by itself when its holder stops renewing it (a SIGKILL included).
import { randomUUID } from 'node:crypto';
import { unchanged, type JsonStore } from '../../core/store/stored-json.js';
import { WEBHOOKS_ROOT } from './webhook-store.js';

const LEASE = `${WEBHOOKS_ROOT}lease`;

interface StoredLease {
  holder: string;
  /** Epoch ms. */
  expires: number;
}

export class DelivererLease {
  private readonly holder = randomUUID();
  /** Epoch ms until which this process holds the lease, as far as it knows; 0: not held. */
  private until = 0;

  constructor(
    private readonly store: JsonStore,
    private readonly now: () => number,
    private readonly ttlMs: number,
  ) {}

  /** Whether this process holds the lease now. Past its own expiry it does not, whatever it last wrote. */
  get held(): boolean {
    return this.until > this.now();
  }

  /** Takes the lease when free or lapsed, or renews it when held; answers whether this process holds it. */
  async acquire(): Promise<boolean> {
    const now = this.now();
    const { next } = await this.store.update<StoredLease>(LEASE, (current) =>
      current && current.holder !== this.holder && current.expires > now
        ? unchanged
        : { holder: this.holder, expires: now + this.ttlMs },
    );
    this.until = next?.holder === this.holder ? next.expires : 0;
    return this.held;
  }

  /** Gives the lease up, so that another process takes it at once rather than after it lapses. */
  async release(): Promise<void> {
    this.until = 0;
    await this.store.update<StoredLease>(LEASE, (current) => (current?.holder === this.holder ? undefined : unchanged));
  }
}
