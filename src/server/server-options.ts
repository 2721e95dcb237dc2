// What createServer takes, each option with its default: the caller's storage and clock, the engines' own options,
// the token and event-subscription limits, the transport limits, TLS, the audit file and the log.
import type { AuthMethodOptions } from '../adapters/aws/auth-method.js';
import type { KvEngineOptions } from '../kv/index.js';
import type { Clock } from '../ports/clock.js';
import type { Storage } from '../ports/storage.js';
import type { TransportLimitOptions } from './http/transport-limits.js';
import type { LogEntry, LogLevel } from './log/log-level.js';
import type { WebhookDeliveryOptions } from './webhooks/delivery-options.js';

export type { LogEntry } from './log/log-level.js';

/**
 * How {@link createServer} is set up. Every option has a default: `createServer()` serves from memory, makes a root
 * token on first use, writes no audit log and takes the transport limits below (1 MiB bodies, 1024 connections, ...).
 * A transport or event-subscription limit that is not a positive number is refused at once, a TypeError naming it.
 */
export interface ServerOptions extends TransportLimitOptions {
  /** Shared by the engines and the server's own state, each under its own key prefix; in memory by default. */
  storage?: Storage;
  /** Where the server and both engines take the time from; the system clock by default. */
  clock?: Clock;
  /**
   * The root token to accept; without it a random one is made by the first `ready()` over a storage that has none. A
   * different value at a later start retires the previous root token (it grants nothing; the tokens it created live on).
   */
  rootToken?: string;
  /** The cloud every AWS auth mount asks about instances and principals; the built-in AWS provider by default. */
  cloud?: AuthMethodOptions['cloud'];
  /** Where the AWS auth mounts read their environment (region, credentials); `process.env` by default. */
  env?: Record<string, string | undefined>;
  /**
   * Further options of every AWS auth mount, applied over the server's own (each mount keeps its own storage prefix and
   * max TTL); none by default.
   */
  authOptions?: Partial<AuthMethodOptions>;
  /** Further options of every KV engine (each keeps its own storage prefix), applied over the server's own; none by default. */
  kvOptions?: Partial<KvEngineOptions>;
  /** How often periodic work (tidy, expired-token sweep) runs; every minute by default. */
  periodicIntervalMs?: number;
  /** Seconds; for tokens created without a TTL, and the mounts' default lease TTL where a mount has none (tokenMaxTtl by default). */
  tokenTtl?: number;
  /** Seconds; the ceiling of every token, and the mounts' max lease TTL where a mount has none (768h by default). */
  tokenMaxTtl?: number;
  /**
   * Live tokens a process keeps before refusing logins and token creation with 429 (root is never refused); 100 000 by
   * default. Counted per process: the two quotas below are exact across processes.
   */
  maxTokens?: number;
  /** Live tokens that may exist below one token root created (its children, theirs, their orphans); 1 000 by default. */
  maxTokensPerParent?: number;
  /** Live tokens of one login role (its logins and the tokens made below them); 10 000 by default. */
  maxTokensPerRole?: number;
  /** Change-event subscriptions a process keeps open at once, all tokens together; 256 by default. */
  maxEventSubscriptions?: number;
  /** Change-event subscriptions a process keeps open at once for one token; 16 by default. */
  maxEventSubscriptionsPerToken?: number;
  /**
   * How often an open subscription looks its token and policies up again (milliseconds; 5 000 by default): the time a
   * revocation or policy change made by another process over the same storage takes to reach it.
   */
  eventRecheckMs?: number;
  /** Serve `GET sys/metrics` without a token (for a Prometheus that scrapes without one); false: it needs sudo. */
  metricsUnauthenticated?: boolean;
  /**
   * A file that receives the audit log: the audit device `file/`, which the API can neither replace nor disable; none
   * by default. Devices enabled over the API (`PUT sys/audit/:path`) are kept in the storage and written by every
   * process over it.
   */
  auditFile?: string;
  /**
   * How long a process goes on with the audit devices it read before reading them from the storage again
   * (milliseconds; 5 000 by default): the time a device another process enabled or disabled takes to reach it.
   */
  auditRefreshMs?: number;
  /** PEM certificate chain and key: serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** One call per request and per fault; JSON lines on stdout by default. */
  log?: (entry: LogEntry) => void;
  /**
   * The least severe entry passed to `log`: `'info'` by default, which leaves out health checks (logged at `'debug'`).
   * Another value is refused at once, a TypeError naming it.
   */
  logLevel?: LogLevel;
  /**
   * Hosts, addresses and CIDRs webhooks may be sent to although they are internal (loopback, link-local, private,
   * shared or unspecified addresses are refused otherwise); none by default. `STRONGROOM_WEBHOOK_ALLOW` for the command.
   */
  webhookAllow?: readonly string[];
  /** How webhooks are delivered: attempts, backoff, timeouts and the deliverer's lease; see the defaults there. */
  webhookDelivery?: WebhookDeliveryOptions;
}
