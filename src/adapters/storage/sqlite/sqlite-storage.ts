import { sameBytes } from '../../../lib/bytes.js';
import { createPrivateFile } from '../../../lib/private-file.js';
import { rejected } from '../../../lib/calls.js';
import type {
  ListPageOptions,
  Storage,
  StorageOperation,
  StorageWatch,
  StorageWatchHandlers,
} from '../../../ports/storage.js';
import {
  assertDistinctKeys,
  boundAfterChild,
  checkPageLimit,
  childName,
  pageStart,
  prefixEnd,
  type Bound,
} from '../key-range.js';
import { loadOptionalDriver } from '../optional-driver.js';
import { retryTransient } from '../retry.js';
import { installChangeLog, watchChangeLog } from './sqlite-watch.js';

/** Options of `SqliteStorage`; only `path` is required. */
export interface SqliteStorageOptions {
  /** The database file; created if missing (mode 0600, with its table and its missing folders, mode 0700). */
  path: string;
  /**
   * `'full'` (default): a write is acknowledged once it is on disk; it survives a process crash and a power loss.
   * `'normal'`: faster; survives a crash of the process, but the last writes before a power loss or an operating
   * system crash may be rolled back (the file itself stays consistent).
   */
  synchronous?: 'full' | 'normal';
  /** How long an operation keeps retrying while another process holds the write lock, in ms (default 10,000). */
  busyTimeoutMs?: number;
  /** Table name (default `strongroom`). */
  table?: string;
  /**
   * How often a `watch` reads the change log for changes other processes committed, in ms (default 100): the most a
   * change event from another process waits.
   */
  watchIntervalMs?: number;
}

/** The part of libsql's better-sqlite3-compatible API this adapter uses. */
interface Statement {
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Array<Record<string, unknown>>;
  run(...params: unknown[]): { changes: number };
}
interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  pragma(source: string): unknown;
  close(): void;
}
type DatabaseConstructor = new (path: string) => Database;

/** SQLite's in-memory database and URI file names name no folder of the file system. */
const isSpecialName = (path: string) => path === ':memory:' || path.startsWith('file:');
/** The lock is held by another connection; waiting inside SQLite would block the event loop, so we retry outside. */
const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown }).code));
/** What SQLite itself waits before answering busy: short, so the event loop is never blocked for long. */
const LOCK_WAIT_MS = 10;

/** A plain Uint8Array over the driver's Buffer (no copy), so callers compare it like any other value. */
const plainBytes = (value: Buffer) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
const toBuffer = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

function prepareAll(db: Database, table: string) {
  const t = `"${table}"`;
  const sql = {
    get: `SELECT value FROM ${t} WHERE key = ?`,
    put: `INSERT INTO ${t} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    delete: `DELETE FROM ${t} WHERE key = ?`,
    insertIfAbsent: `INSERT INTO ${t} (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`,
    replaceIfEqual: `UPDATE ${t} SET value = ? WHERE key = ? AND value = ?`,
    deleteIfEqual: `DELETE FROM ${t} WHERE key = ? AND value = ?`,
    // Every TEXT sorts before every BLOB in SQLite, so an empty BLOB is an upper bound for the root's range.
    firstFrom: `SELECT key FROM ${t} WHERE key >= ? AND key < ? ORDER BY key LIMIT 1`,
    firstAfter: `SELECT key FROM ${t} WHERE key > ? AND key < ? ORDER BY key LIMIT 1`,
    rangeFrom: `SELECT key FROM ${t} WHERE key >= ? AND key < ? ORDER BY key LIMIT ?`,
    rangeAfter: `SELECT key FROM ${t} WHERE key > ? AND key < ? ORDER BY key LIMIT ?`,
  };
  return Object.fromEntries(Object.entries(sql).map(([name, text]) => [name, db.prepare(text)])) as Record<
    keyof typeof sql,
    Statement
  >;
}

/**
 * Storage in one SQLite file through libsql, in WAL mode: readers never wait for writers, and several processes may
 * share the file (SQLite's file locks serialize writers). Keys are TEXT under SQLite's BINARY collation, which is
 * the UTF-8 byte order the port asks for, so listings come straight from the primary-key index.
 */
export class SqliteStorage implements Storage {
  /** Every read answers an array of its own (see Storage.answersCopies). */
  readonly answersCopies = true;
  private readonly options: Required<SqliteStorageOptions>;
  private opened?: Promise<{ db: Database; statements: ReturnType<typeof prepareAll> }>;
  /** What `opened` resolved to, once it has, until `close`: calls then run at once. */
  private connection?: { db: Database; statements: ReturnType<typeof prepareAll> };
  private closed = false;
  private readonly watches = new Set<StorageWatch>();

  /**
   * Checks the options (a TypeError when one is invalid); the file is opened, and `libsql` loaded, by the first
   * operation, which rejects when the package is not installed.
   */
  constructor(options: SqliteStorageOptions) {
    if (typeof options?.path !== 'string' || options.path === '')
      throw new TypeError('SqliteStorage needs a file path');
    const table = options.table ?? 'strongroom';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new TypeError(`invalid table name ${JSON.stringify(table)}`);
    const synchronous = options.synchronous ?? 'full';
    if (synchronous !== 'full' && synchronous !== 'normal')
      throw new TypeError(`synchronous must be 'full' or 'normal'`);
    const watchIntervalMs = options.watchIntervalMs ?? 100;
    if (!Number.isInteger(watchIntervalMs) || watchIntervalMs < 10 || watchIntervalMs > 60_000)
      throw new TypeError('watchIntervalMs must be an integer from 10 to 60000');
    this.options = {
      path: options.path,
      synchronous,
      busyTimeoutMs: options.busyTimeoutMs ?? 10_000,
      table,
      watchIntervalMs,
    };
  }

  get(key: string): Promise<Uint8Array | undefined> {
    return this.run(({ get }) => {
      const row = get.get(key);
      return row === undefined ? undefined : plainBytes(row.value as Buffer);
    });
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    await this.run(({ put }) => put.run(key, toBuffer(value)));
  }

  async delete(key: string): Promise<void> {
    await this.run((statements) => statements.delete.run(key));
  }

  async list(prefix: string): Promise<string[]> {
    return this.children(prefix, { key: prefix, inclusive: true }, Number.POSITIVE_INFINITY);
  }

  async listPage(prefix: string, options: ListPageOptions): Promise<string[]> {
    checkPageLimit(options.limit);
    const start = pageStart(prefix, options.after, options.recursive === true);
    if (!options.recursive) return this.children(prefix, start, options.limit);
    return this.run(({ rangeFrom, rangeAfter }) =>
      (start.inclusive ? rangeFrom : rangeAfter)
        .all(start.key, this.end(prefix), options.limit)
        .map((row) => (row.key as string).slice(prefix.length)),
    );
  }

  async compareAndPut(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean> {
    return this.run(({ insertIfAbsent, replaceIfEqual }) =>
      expected === undefined
        ? insertIfAbsent.run(key, toBuffer(value)).changes === 1
        : replaceIfEqual.run(toBuffer(value), key, toBuffer(expected)).changes === 1,
    );
  }

  async compareAndDelete(key: string, expected: Uint8Array): Promise<boolean> {
    return this.run(({ deleteIfEqual }) => deleteIfEqual.run(key, toBuffer(expected)).changes === 1);
  }

  /**
   * BEGIN IMMEDIATE takes the write lock before the conditions are read, so no other process can change them between
   * the check and the writes; the whole transaction runs synchronously, so no other caller in this process interleaves.
   */
  async commit(operations: readonly StorageOperation[]): Promise<boolean> {
    assertDistinctKeys(operations.map((operation) => operation.key));
    if (operations.length === 0) return true;
    return this.run((statements, db) => {
      db.exec('BEGIN IMMEDIATE');
      try {
        const holds = operations.every(({ key, expected }) => {
          if (expected === undefined) return true;
          const current = statements.get.get(key)?.value as Uint8Array | undefined;
          return current === undefined ? expected === null : expected !== null && sameBytes(current, expected);
        });
        if (holds) {
          for (const operation of operations) {
            if (operation.type === 'put') statements.put.run(operation.key, toBuffer(operation.value));
            else statements.delete.run(operation.key);
          }
        }
        db.exec(holds ? 'COMMIT' : 'ROLLBACK');
        return holds;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /**
   * Changed keys from every process sharing the file, from a change log the table's triggers keep (sqlite-watch.ts).
   * `close` ends the watches too.
   */
  async watch(prefix: string, handlers: StorageWatchHandlers): Promise<StorageWatch> {
    const { table, watchIntervalMs } = this.options;
    await this.run((_, db) => installChangeLog(db, table));
    const reader = { run: <T>(work: (db: Database) => T) => this.run((_, db) => work(db)) };
    const watch = await watchChangeLog(reader, table, watchIntervalMs, prefix, handlers);
    this.watches.add(watch);
    return {
      close: async () => {
        this.watches.delete(watch);
        await watch.close();
      },
    };
  }

  /** Closes the file and ends the watches; later calls reject. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.watches].map((watch) => watch.close()));
    this.watches.clear();
    const opened = this.opened;
    this.opened = undefined;
    this.connection = undefined;
    if (opened) (await opened).db.close();
  }

  /** Seeks from child to child: one index lookup per listed name, however large each sub-folder is. */
  private children(prefix: string, start: Bound, limit: number): Promise<string[]> {
    return this.run(({ firstFrom, firstAfter }) => {
      const names: string[] = [];
      const end = this.end(prefix);
      for (let bound = start; names.length < limit;) {
        const row = (bound.inclusive ? firstFrom : firstAfter).get(bound.key, end);
        if (row === undefined) break;
        const name = childName(prefix, row.key as string);
        names.push(name);
        bound = boundAfterChild(prefix, name);
      }
      return names;
    });
  }

  private end(prefix: string): string | Buffer {
    return prefixEnd(prefix) ?? Buffer.alloc(0);
  }

  /**
   * Runs `work` (synchronous: libsql is) on the open file, again while SQLite answers busy, within busyTimeoutMs. Once
   * the file is open the first attempt runs at once, without waiting for the open promise or entering the retry loop:
   * the promise layers cost a read more than SQLite's own lookup, and nearly every attempt succeeds.
   */
  private run<T>(work: (statements: ReturnType<typeof prepareAll>, db: Database) => T): Promise<T> {
    const connection = this.connection;
    if (connection && !this.closed) {
      try {
        return Promise.resolve(work(connection.statements, connection.db));
      } catch (error) {
        if (!isBusy(error)) return rejected(error);
      }
    }
    return this.runOpened(work);
  }

  private async runOpened<T>(work: (statements: ReturnType<typeof prepareAll>, db: Database) => T): Promise<T> {
    const { db, statements } = await this.open();
    return retryTransient(() => work(statements, db), isBusy, this.options.busyTimeoutMs);
  }

  private open() {
    if (this.closed) return Promise.reject(new Error('SqliteStorage is closed'));
    this.opened ??= retryTransient(() => this.connect(), isBusy, this.options.busyTimeoutMs).then(
      (connection) => {
        // A close while the file was opening has already run: it closes this connection, which must not be used.
        if (!this.closed) this.connection = connection;
        return connection;
      },
      (error: unknown) => {
        this.opened = undefined;
        throw error;
      },
    );
    return this.opened;
  }

  private async connect() {
    const Driver = await loadOptionalDriver<DatabaseConstructor>('libsql', 'strongroom/sqlite');
    // SQLite would create a missing file with the umask's mode, and not its folder; it gives the WAL and journal the
    // file's mode, so a file created here owner-only keeps all three private.
    if (!isSpecialName(this.options.path)) await (await createPrivateFile(this.options.path))?.close();
    const db = new Driver(this.options.path);
    try {
      db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${this.options.synchronous.toUpperCase()}`);
      db.exec(
        `CREATE TABLE IF NOT EXISTS "${this.options.table}" (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID`,
      );
      return { db, statements: prepareAll(db, this.options.table) };
    } catch (error) {
      db.close();
      throw error;
    }
  }
}
