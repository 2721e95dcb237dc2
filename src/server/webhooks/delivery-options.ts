// How webhooks are delivered: attempts and their backoff, the bound of one attempt, and the deliverer's rhythm.

/** How {@link createServer} delivers webhooks; every field has a default. */
export interface WebhookDeliveryOptions {
  /** Attempts per event before it becomes a dead letter; 8 by default. */
  attempts?: number;
  /** Wait after the first failed attempt (ms), doubled after each further one; 1 000 by default. */
  backoffMs?: number;
  /** The longest wait between two attempts (ms); 300 000 (5 minutes) by default. */
  maxBackoffMs?: number;
  /** One attempt, connection and answer included (ms); 10 000 by default. */
  timeoutMs?: number;
  /** How often the deliverer looks for due events (ms); 1 000 by default. */
  pollMs?: number;
  /**
   * How long the deliverer's lease lasts unrenewed (ms): after a holder dies, another process takes over within it;
   * 10 000 by default. It is renewed every poll, so it must exceed pollMs.
   */
  leaseMs?: number;
  /**
   * How often every watched key is read again from the durable cursor (ms), to queue changes no change event announced
   * to this process; 60 000 by default. It is also done whenever a process takes the lease.
   */
  scanMs?: number;
}

export type DeliverySettings = Required<WebhookDeliveryOptions>;

const DEFAULTS: DeliverySettings = {
  attempts: 8,
  backoffMs: 1000,
  maxBackoffMs: 300_000,
  timeoutMs: 10_000,
  pollMs: 1000,
  leaseMs: 10_000,
  scanMs: 60_000,
};

/** The settings with their defaults; a value that is not a positive integer is a TypeError naming it. */
export function deliverySettings(options: WebhookDeliveryOptions = {}): DeliverySettings {
  const settings = { ...DEFAULTS, ...options };
  for (const [name, value] of Object.entries(settings))
    if (!Number.isInteger(value) || value <= 0)
      throw new TypeError(`webhookDelivery.${name} must be a positive integer, got ${String(value)}`);
  if (settings.leaseMs <= settings.pollMs) throw new TypeError('webhookDelivery.leaseMs must exceed pollMs');
  return settings;
}

/** The wait after the `attempt`th failed attempt. */
export function backoff(settings: DeliverySettings, attempt: number): number {
  return Math.min(settings.maxBackoffMs, settings.backoffMs * 2 ** Math.min(attempt - 1, 30));
}
