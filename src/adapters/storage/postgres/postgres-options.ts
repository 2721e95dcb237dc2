import { checkConnectionString } from './postgres-url.js';

/** Options of `PostgresStorage`; only `connectionString` is required. */
export interface PostgresStorageOptions {
  /** postgres://user:password@host:port/database (its encoding must be UTF8, the default). */
  connectionString: string;
  /** Table name, optionally schema-qualified (default `strongroom`); created on first use. */
  table?: string;
  /** Most connections this storage opens at once (default 10); further queries queue. */
  poolSize?: number;
  /**
   * Seconds to wait for a connection, whether a new one or a free one of the pool (default 5). With
   * `statementTimeoutSeconds` it bounds every operation: one that has no answer within the sum rejects with
   * `StorageUnavailable`, whatever the server or the network does.
   */
  connectTimeoutSeconds?: number;
  /**
   * Seconds one statement or transaction may run on the server (default 5): PostgreSQL cancels it past that (its
   * `statement_timeout`, sent when each connection opens) and the operation rejects with `StorageUnavailable`.
   */
  statementTimeoutSeconds?: number;
  /** How long a transaction is retried after serialization failures or deadlocks, in ms (default 5,000). */
  retryBudgetMs?: number;
  /**
   * Prepare each statement once per connection and reuse it (default true): half the round-trip time of an unprepared
   * statement on a local server. Set false behind a pooler in transaction mode (PgBouncer before 1.21), which cannot
   * keep a session's prepared statements.
   */
  prepare?: boolean;
  /**
   * Seconds between the probes that check a `watch`'s listening session still receives notifications (default 30; 0
   * turns them off). A session that does not get its probe back within the same time is replaced, and the watcher told
   * to catch up.
   */
  watchHeartbeatSeconds?: number;
}

/** The options checked, with their defaults filled in. */
export interface PostgresSettings {
  connectionString: string;
  /** As configured (`name` or `schema.name`). */
  tableName: string;
  /** Quoted for SQL. */
  table: string;
  poolSize: number;
  connectTimeoutSeconds: number;
  statementTimeoutSeconds: number;
  retryBudgetMs: number;
  prepare: boolean;
  heartbeatMs: number;
}

function seconds(name: string, value: number | undefined, fallback: number, min: number): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !(chosen >= min && chosen <= 3600))
    throw new TypeError(`${name} must be between ${min} and 3600 (seconds)`);
  return chosen;
}

/** Checks the options (a TypeError naming the bad one) and fills in the defaults. */
export function postgresSettings(options: PostgresStorageOptions): PostgresSettings {
  if (typeof options?.connectionString !== 'string' || options.connectionString === '') {
    throw new TypeError('PostgresStorage needs a connectionString');
  }
  checkConnectionString(options.connectionString);
  const tableName = options.table ?? 'strongroom';
  if (!/^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$/.test(tableName))
    throw new TypeError(`invalid table name ${JSON.stringify(tableName)}`);
  const poolSize = options.poolSize ?? 10;
  if (!Number.isInteger(poolSize) || poolSize < 1) throw new TypeError('poolSize must be a positive integer');
  return {
    connectionString: options.connectionString,
    tableName,
    table: tableName
      .split('.')
      .map((part) => `"${part}"`)
      .join('.'),
    poolSize,
    connectTimeoutSeconds: seconds('connectTimeoutSeconds', options.connectTimeoutSeconds, 5, 0.1),
    statementTimeoutSeconds: seconds('statementTimeoutSeconds', options.statementTimeoutSeconds, 5, 0.1),
    retryBudgetMs: options.retryBudgetMs ?? 5_000,
    prepare: options.prepare ?? true,
    heartbeatMs: seconds('watchHeartbeatSeconds', options.watchHeartbeatSeconds, 30, 0) * 1000,
  };
}

/**
 * The wait before reconnecting after a failed connection, in seconds. postgres.js's own grows to 20 s after a few
 * failures and never shrinks while they go on, so an outage of seconds kept requests waiting long after the server was
 * back; capped at half a second, the first request after the outage connects at once.
 */
const reconnectDelay = (failures: number) => Math.min(0.05 * 2 ** failures, 0.5) * (0.5 + Math.random() / 2);

/** postgres.js's options for a client of `max` connections. */
export function clientOptions(settings: PostgresSettings, max: number): Record<string, unknown> {
  return {
    max,
    connect_timeout: settings.connectTimeoutSeconds,
    backoff: reconnectDelay,
    idle_timeout: 60,
    prepare: settings.prepare,
    onnotice: () => undefined,
    connection: { statement_timeout: Math.round(settings.statementTimeoutSeconds * 1000) },
  };
}
