import { compareKeys } from '../../../lib/key-order.js';
import type {
  ListPageOptions,
  Storage,
  StorageOperation,
  StorageWatch,
  StorageWatchHandlers,
} from '../../../ports/storage.js';
import { assertDistinctKeys, checkPageLimit, pageStart } from '../key-range.js';
import { loadOptionalDriver } from '../optional-driver.js';
import { BatchedGets } from '../batched-gets.js';
import { commitStatement, operationInTransaction, RACED_CONDITION, type SqlStatement } from './postgres-commit.js';
import { childrenStatement, keysPageStatement, keysStatement } from './postgres-reads.js';
import { describeServer } from './postgres-url.js';
import {
  clientOptions,
  postgresSettings,
  type PostgresSettings,
  type PostgresStorageOptions,
} from './postgres-options.js';
import { bounded, poolSuspect } from './postgres-bounds.js';
import { watchTable, type ListeningSql, type PoolSql } from './postgres-watch.js';
import { retryTransient } from '../retry.js';

export type { PostgresStorageOptions } from './postgres-options.js';

/** The part of postgres.js (the `postgres` package) this adapter uses. */
type Row = Record<string, unknown>;
type Query = Promise<Row[] & { count: number }>;
interface Sql {
  (strings: TemplateStringsArray, ...values: unknown[]): Query;
  (identifier: string): unknown;
  unsafe(query: string, params?: unknown[], options?: { prepare?: boolean }): Query;
  begin<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  end(options?: { timeout?: number }): Promise<void>;
}
type Connect = (url: string, options: Record<string, unknown>) => Sql;

/** Conflicts another transaction caused: the whole transaction is safe to run again. */
const TRANSIENT = new Set(['40001', '40P01']);
const isTransient = (error: unknown) => TRANSIENT.has(String((error as { code?: unknown }).code));
/** Thrown when a commit's condition does not hold, to roll its transaction back. */
class ConditionFailed extends Error {}

const plainBytes = (value: Buffer) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
const toBuffer = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/**
 * Storage in one PostgreSQL table: `key text COLLATE "C" PRIMARY KEY, value bytea`. The "C" collation orders keys by
 * their UTF-8 bytes, the order the port asks for, so listings are answered by the primary-key index. Every write is
 * one statement or one transaction, so any number of processes may share the table with no coordinator.
 */
export class PostgresStorage implements Storage {
  /** Every read answers an array of its own (see Storage.answersCopies). */
  readonly answersCopies = true;
  private readonly settings: PostgresSettings;
  private readonly table: string;
  private readonly where: string;
  private readonly statementOptions: { prepare: boolean };
  private readonly reads = new BatchedGets((keys) => this.getMany(keys));
  private client?: Promise<Sql>;
  private migrated?: Promise<void>;
  private closed = false;
  private readonly watches = new Set<StorageWatch>();
  /** Pools replaced after a failure, ending: close() waits for them. */
  private readonly retiring = new Set<Promise<void>>();

  /**
   * Checks the options (a TypeError when one is invalid); the first operation loads `postgres`, rejecting when the
   * package is not installed, connects and creates the table if need be.
   */
  constructor(options: PostgresStorageOptions) {
    this.settings = postgresSettings(options);
    this.table = this.settings.table;
    this.where = describeServer(options.connectionString);
    this.statementOptions = { prepare: this.settings.prepare };
  }

  /**
   * Creates the table if it does not exist. Operations call it on first use; operators may run it ahead of time.
   * An advisory lock serializes concurrent first starts, since CREATE TABLE IF NOT EXISTS alone can race.
   */
  async migrate(): Promise<void> {
    const sql = await this.connection();
    await this.guard(() =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext(${this.table}))`;
        await tx.unsafe(
          `CREATE TABLE IF NOT EXISTS ${this.table} (key text COLLATE "C" PRIMARY KEY, value bytea NOT NULL)`,
        );
      }),
    );
  }

  /** Reads issued together (an operation's, or concurrent requests') share one statement. */
  async get(key: string): Promise<Uint8Array | undefined> {
    return this.reads.get(key);
  }

  private async getMany(keys: readonly string[]): Promise<Map<string, Uint8Array>> {
    const { text, params } = keysStatement(keys);
    const rows = await this.query(text, params);
    return new Map(rows.map((row) => [row.key as string, plainBytes(row.value as Buffer)]));
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    await this.query(
      'INSERT INTO $table (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, toBuffer(value)],
    );
  }

  async delete(key: string): Promise<void> {
    await this.query('DELETE FROM $table WHERE key = $1', [key]);
  }

  async list(prefix: string): Promise<string[]> {
    return this.names(childrenStatement(prefix, { key: prefix, inclusive: true }, null));
  }

  async listPage(prefix: string, options: ListPageOptions): Promise<string[]> {
    checkPageLimit(options.limit);
    const start = pageStart(prefix, options.after, options.recursive === true);
    return this.names(
      options.recursive
        ? keysPageStatement(prefix, start, options.limit)
        : childrenStatement(prefix, start, options.limit),
    );
  }

  async compareAndPut(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean> {
    const rows =
      expected === undefined
        ? await this.query('INSERT INTO $table (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
            key,
            toBuffer(value),
          ])
        : await this.query('UPDATE $table SET value = $2 WHERE key = $1 AND value = $3', [
            key,
            toBuffer(value),
            toBuffer(expected),
          ]);
    return rows.count === 1;
  }

  async compareAndDelete(key: string, expected: Uint8Array): Promise<boolean> {
    const rows = await this.query('DELETE FROM $table WHERE key = $1 AND value = $2', [key, toBuffer(expected)]);
    return rows.count === 1;
  }

  /**
   * Atomic: one statement in the common case, else one transaction whose statements are pipelined (both in
   * postgres-commit.ts). Conditional rows are locked before they are checked, so no other transaction can change a checked key
   * before we commit; a deadlock that still happens is retried.
   */
  async commit(operations: readonly StorageOperation[]): Promise<boolean> {
    assertDistinctKeys(operations.map((operation) => operation.key));
    if (operations.length === 0) return true;
    const sorted = [...operations].sort((a, b) => compareKeys(a.key, b.key));
    const statement = commitStatement(this.table, sorted);
    if (statement) {
      try {
        return (await this.query(statement.text, statement.params))[0]?.ok === true;
      } catch (error) {
        if ((error as { code?: unknown }).code === RACED_CONDITION) return false;
        throw error;
      }
    }
    const sql = await this.ready();
    try {
      await this.guard(() =>
        retryTransient(
          () =>
            sql.begin(async (tx) => {
              const run = (text: string, params: unknown[]) =>
                tx.unsafe(text.replaceAll('$table', this.table), params, this.statementOptions);
              const counts = await Promise.all(sorted.map((operation) => operationInTransaction(run, operation)));
              if (counts.some((holds) => !holds)) throw new ConditionFailed();
            }),
          isTransient,
          this.settings.retryBudgetMs,
        ),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionFailed) return false;
      throw error;
    }
  }

  /** Changed keys from every process sharing the table, by LISTEN/NOTIFY (postgres-watch.ts). `close` ends them too. */
  async watch(prefix: string, handlers: StorageWatchHandlers): Promise<StorageWatch> {
    await this.ready();
    // The pool as it is at each call: one replaced after a failure must not take the heartbeat's probes with it.
    const pool: PoolSql = {
      unsafe: async (query, params) => (await this.connection()).unsafe(query, params),
      begin: async (work) => (await this.connection()).begin((tx) => work(tx as unknown as ListeningSql)),
    };
    const watch = await watchTable(
      pool,
      {
        table: this.settings.tableName,
        // Like postgres.js's own listener: no idle or age limit, either of which would end the session for nothing.
        listener: async () =>
          (await this.driver())(this.settings.connectionString, {
            ...clientOptions(this.settings, 1),
            idle_timeout: null,
            max_lifetime: null,
            fetch_types: false,
          }) as unknown as ListeningSql,
        heartbeatMs: this.settings.heartbeatMs,
      },
      prefix,
      handlers,
    );
    if (this.closed) {
      await watch.close();
      throw new Error('PostgresStorage is closed');
    }
    this.watches.add(watch);
    return {
      close: async () => {
        this.watches.delete(watch);
        await watch.close();
      },
    };
  }

  /** Waits for running queries (up to 5 s), then closes every connection; later calls reject. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.watches].map((watch) => watch.close()));
    this.watches.clear();
    const client = this.client;
    this.client = undefined;
    if (client) await (await client).end({ timeout: 5 });
    await Promise.all(this.retiring);
  }

  private async names(statement: SqlStatement): Promise<string[]> {
    return (await this.query(statement.text, statement.params)).map((row) => row.name as string);
  }

  /** One statement, with `$table` standing for the quoted table name. */
  private async query(text: string, params: unknown[]): Promise<Row[] & { count: number }> {
    const sql = await this.ready();
    return this.guard(() =>
      retryTransient(
        () => sql.unsafe(text.replaceAll('$table', this.table), params, this.statementOptions),
        isTransient,
        this.settings.retryBudgetMs,
      ),
    );
  }

  private async ready(): Promise<Sql> {
    const sql = await this.connection();
    this.migrated ??= this.migrate().catch((error: unknown) => {
      this.migrated = undefined;
      throw error;
    });
    await this.migrated;
    return sql;
  }

  private connection(): Promise<Sql> {
    if (this.closed) return Promise.reject(new Error('PostgresStorage is closed'));
    // A failure to create the client is not kept: the next operation tries again, and close() has nothing to end.
    this.client ??= this.driver()
      .then((connect) => connect(this.settings.connectionString, clientOptions(this.settings, this.settings.poolSize)))
      .catch((error: unknown) => {
        this.client = undefined;
        throw error;
      });
    return this.client;
  }

  private driver(): Promise<Connect> {
    return loadOptionalDriver<Connect>('postgres', 'strongroom/postgres');
  }

  /** Runs one operation within the timeouts (postgres-bounds.ts), replacing the pool when it may hold broken connections. */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    const pool = this.client;
    try {
      return await bounded(work, this.settings, this.where);
    } catch (error) {
      if (pool && pool === this.client && poolSuspect(error)) {
        // The next operation opens a new pool; the old one ends once its running queries have (5 s at most).
        this.client = undefined;
        const ending = pool.then((sql) => sql.end({ timeout: 5 })).catch(() => undefined);
        this.retiring.add(ending);
        void ending.then(() => this.retiring.delete(ending));
      }
      throw error;
    }
  }
}
