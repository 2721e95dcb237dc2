// Who may receive the change events of an open stream, decided once per token rather than once per event. A token's
// entry and ACL are resolved when its first stream opens and kept while it has one, so an event costs no storage read
// (looking a token up walks its parent chain, up to 256 reads). What would change the answer is followed instead: a
// revocation or a policy write in this process reaches the streams before it is answered, a token's expiry ends its
// streams on time, and every `recheckMs` each token is looked up again, which brings in what other processes over the
// same storage did (revocations, policy writes, a parent's expiry).
import type { Acl } from '../../acl/acl.js';
import { PermissionDenied, QuotaExceeded } from '../../lib/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { PolicyStore } from '../policies/policy-store.js';
import type { TokenRecord } from '../tokens/token-record.js';
import type { TokenStore } from '../tokens/token-store.js';

export interface SubscriptionLimits {
  /** Subscriptions this process keeps open at once, all tokens together. */
  total: number;
  /** Subscriptions one token may hold open at once in this process. */
  perToken: number;
  /** Milliseconds between two lookups of the token of an open subscription. */
  recheckMs: number;
}

export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { total: 256, perToken: 16, recheckMs: 5000 };

/** The limits from createServer's options; anything but a positive integer is a TypeError naming the option. */
export function subscriptionLimits(options: {
  maxEventSubscriptions?: number;
  maxEventSubscriptionsPerToken?: number;
  eventRecheckMs?: number;
}): SubscriptionLimits {
  const positive = (name: string, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value <= 0) throw new TypeError(`${name} must be a positive integer`);
    return value;
  };
  return {
    total: positive('maxEventSubscriptions', options.maxEventSubscriptions, DEFAULT_SUBSCRIPTION_LIMITS.total),
    perToken: positive(
      'maxEventSubscriptionsPerToken',
      options.maxEventSubscriptionsPerToken,
      DEFAULT_SUBSCRIPTION_LIMITS.perToken,
    ),
    recheckMs: positive('eventRecheckMs', options.eventRecheckMs, DEFAULT_SUBSCRIPTION_LIMITS.recheckMs),
  };
}

// Node runs a longer timer at once; a later expiry is looked at again when this one fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** An open stream, as far as subscriptions go: the registry only ever ends it. */
export interface EventStream {
  end(): void;
}

/** What a stream asks while it is open. */
export interface Subscription {
  /** Whether the token may, as of now, read `path` (an event's metadata path). */
  allows(path: string): boolean;
  /** The stream closed: its place is given back. */
  close(): void;
}

/** A place held between a subscription's permission check and the start of its stream, stamped with the recheck count. */
interface Reservation {
  tick: number;
}

interface Services {
  tokens: TokenStore;
  policies: PolicyStore;
  clock: Clock;
  limits: SubscriptionLimits;
  /** The path a subscription needs `read` on, e.g. `sys/events/subscribe/secret`. */
  path: string;
}

/** One token's open streams and places, and what it may read. */
class TokenSubscriptions {
  acl: Acl | undefined;
  ended = false;
  readonly streams = new Set<EventStream>();
  readonly reservations = new Set<Reservation>();
  #refreshing: Promise<void> = Promise.resolve();
  #queued = false;
  /** No longer followed (ended, or nothing left open): a lookup still under way changes nothing. */
  #stopped = false;
  #expiry: NodeJS.Timeout | undefined;

  constructor(
    private readonly services: Services,
    private readonly token: string,
    public record: TokenRecord,
    private readonly forget: (subscriptions: TokenSubscriptions) => void,
  ) {}

  get size(): number {
    return this.streams.size + this.reservations.size;
  }

  allows(path: string): boolean {
    return !this.ended && this.acl?.allows('read', path) === true;
  }

  /**
   * Looks the token and its policies up again, after whatever is already under way; a lookup still waiting to start
   * covers any asked for meanwhile, so rechecks never pile up behind a slow storage. A token that is gone, or that may
   * no longer subscribe, ends its streams; so does a storage failure, since nothing could be checked.
   */
  refresh(): Promise<void> {
    if (this.#queued) return this.#refreshing;
    this.#queued = true;
    this.#refreshing = this.#refreshing.then(async () => {
      this.#queued = false;
      if (this.#stopped) return;
      try {
        const record = await this.services.tokens.find(this.token);
        const acl = record ? await this.services.policies.aclFor(record.policies) : undefined;
        if (this.#stopped) return;
        if (!record || !acl?.allows('read', this.services.path)) return this.end();
        this.record = record;
        this.acl = acl;
        this.#scheduleExpiry();
      } catch {
        this.end();
      }
    });
    return this.#refreshing;
  }

  /** Resolves once every lookup asked for so far is done. */
  settled(): Promise<void> {
    return this.#refreshing;
  }

  /** At the token's own expiry, a lookup: it ends the streams, or finds the token renewed and waits again. */
  #scheduleExpiry(): void {
    clearTimeout(this.#expiry);
    if (this.record.expiresAt === 0) return;
    const wait = Math.max(0, this.record.expiresAt - this.services.clock.now().getTime());
    this.#expiry = setTimeout(() => void this.refresh(), Math.min(wait, MAX_TIMER_MS)).unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#expiry);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.forget(this);
    for (const stream of this.streams) stream.end();
  }
}

export class EventSubscriptions {
  /** By token id (its keyed hash): at most `limits.total` entries, each with a place or a stream. */
  readonly #byToken = new Map<string, TokenSubscriptions>();
  /** Places and streams, all tokens together. */
  #open = 0;
  #ticks = 0;
  #recheck: NodeJS.Timeout | undefined;

  constructor(private readonly services: Services) {
    services.tokens.onRevoke((id) => this.#byToken.get(id)?.end());
    services.policies.onChange(async (name) => {
      const affected = [...this.#byToken.values()].filter((subscriptions) =>
        subscriptions.record.policies.includes(name),
      );
      await Promise.all(affected.map((subscriptions) => subscriptions.refresh()));
    });
  }

  /**
   * Holds a place for one more subscription of `caller`, whose request has just passed its permission check, and
   * answers the function that opens its stream on that place. 429 past the limits; 403 when the token turns out to be
   * gone or no longer allowed to subscribe. A place not taken by its stream within one full recheck interval (its
   * client left before the stream began) is given back.
   */
  async subscribe(caller: TokenRecord, token: string): Promise<(stream: EventStream) => Subscription | undefined> {
    const { total, perToken } = this.services.limits;
    if (this.#open >= total)
      throw new QuotaExceeded(`too many event subscriptions: this server keeps at most ${total} open`);
    let subscriptions = this.#byToken.get(caller.id);
    if (subscriptions && subscriptions.size >= perToken) {
      throw new QuotaExceeded(`too many event subscriptions for this token: at most ${perToken} open at once`);
    }
    if (!subscriptions) {
      subscriptions = new TokenSubscriptions(this.services, token, caller, (ended) => this.#forget(ended));
      this.#byToken.set(caller.id, subscriptions);
      // Looked up again: a revocation between the request's permission check and now told nobody. A token already
      // followed needs no lookup: a revocation since would have ended it.
      void subscriptions.refresh();
      this.#recheck ??= setInterval(() => this.#tick(), Math.min(this.services.limits.recheckMs, MAX_TIMER_MS)).unref();
    }
    const reservation: Reservation = { tick: this.#ticks };
    subscriptions.reservations.add(reservation);
    this.#open += 1;
    await subscriptions.settled();
    if (subscriptions.ended) throw new PermissionDenied();
    const held = subscriptions;
    return (stream) => {
      if (!held.reservations.delete(reservation)) {
        stream.end();
        return undefined;
      }
      held.streams.add(stream);
      return {
        allows: (path) => held.allows(path),
        close: () => {
          if (!held.streams.delete(stream)) return;
          this.#open -= 1;
          this.#forgetIfIdle(held);
        },
      };
    };
  }

  #tick(): void {
    this.#ticks += 1;
    for (const subscriptions of this.#byToken.values()) {
      for (const reservation of subscriptions.reservations) {
        if (this.#ticks - reservation.tick >= 2) this.#release(subscriptions, reservation);
      }
      if (subscriptions.size > 0) void subscriptions.refresh();
    }
  }

  #release(subscriptions: TokenSubscriptions, reservation: Reservation): void {
    if (!subscriptions.reservations.delete(reservation)) return;
    this.#open -= 1;
    this.#forgetIfIdle(subscriptions);
  }

  #forgetIfIdle(subscriptions: TokenSubscriptions): void {
    if (subscriptions.size === 0) this.#forget(subscriptions);
  }

  /**
   * A token's subscriptions that ended or hold nothing any more: their places go back and the token is no longer
   * followed (its open streams, if it ended, give theirs back as they close).
   */
  #forget(subscriptions: TokenSubscriptions): void {
    this.#open -= subscriptions.reservations.size;
    subscriptions.reservations.clear();
    subscriptions.stop();
    if (this.#byToken.get(subscriptions.record.id) === subscriptions) this.#byToken.delete(subscriptions.record.id);
    if (this.#byToken.size === 0) {
      clearInterval(this.#recheck);
      this.#recheck = undefined;
    }
  }
}
