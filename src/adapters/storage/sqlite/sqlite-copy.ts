/**
 * Whole-file copies of a `SqliteStorage`'s table, for backups and restores, through a connection of their own. The
 * snapshot is SQLite's own online copy, `VACUUM INTO` a private file beside the database: one read transaction, so
 * exactly the writes committed before it began, and short, so the WAL keeps being checkpointed behind it. The entries
 * are then read from that still copy, which is removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { StorageNotEmpty } from '../../../lib/errors.js';
import { createPrivateFile } from '../../../lib/private-file.js';
import type { StorageCopy, StorageEntry } from '../../../ports/storage-copy.js';
import { loadOptionalDriver } from '../optional-driver.js';
import type { SqliteStorageOptions } from './sqlite-storage.js';

/** The part of libsql's better-sqlite3-compatible API this file uses. */
interface Database {
  prepare(sql: string): {
    all(...params: unknown[]): Array<Record<string, unknown>>;
    get(...params: unknown[]): Record<string, unknown> | undefined;
    run(...params: unknown[]): unknown;
  };
  exec(sql: string): void;
  pragma(source: string): unknown;
  close(): void;
}
type DatabaseConstructor = new (path: string) => Database;

/** Rows read from the still copy at a time: memory stays bounded while the backup is written out. */
const PAGE = 500;
/** A copy run by an operator command may wait for SQLite's locks, since no request waits behind it. */
const LOCK_WAIT_MS = 10_000;

/** The copy side of the `SqliteStorage` over `path` (whose table `SqliteStorage` has created). */
export class SqliteCopy implements StorageCopy {
  private readonly path: string;
  private readonly table: string;

  /** The file and table, as the `SqliteStorage` over them was given them. */
  constructor(options: Pick<SqliteStorageOptions, 'path' | 'table'>) {
    this.path = options.path;
    this.table = `"${options.table ?? 'strongroom'}"`;
  }

  async *snapshot(): AsyncIterable<StorageEntry> {
    const copy = `${this.path}.snapshot-${randomBytes(6).toString('hex')}`;
    // VACUUM INTO writes into an empty file with the mode it has: created here owner-only, as the database is.
    await (await createPrivateFile(copy))!.close();
    try {
      await this.using(this.path, (db) => db.prepare('VACUUM INTO ?').run(copy));
      const still = await this.connect(copy);
      try {
        const page = still.prepare(`SELECT key, value FROM ${this.table} WHERE key > ? ORDER BY key LIMIT ${PAGE}`);
        for (let after = ''; ;) {
          const rows = page.all(after);
          for (const row of rows) yield { key: row.key as string, value: new Uint8Array(row.value as Buffer) };
          if (rows.length < PAGE) break;
          after = rows[rows.length - 1]!.key as string;
        }
      } finally {
        still.close();
      }
    } finally {
      await rm(copy, { force: true });
    }
  }

  /** One IMMEDIATE transaction: the emptiness check and the inserts hold the write lock together. */
  async loadIntoEmpty(entries: readonly StorageEntry[]): Promise<void> {
    await this.using(this.path, (db) => {
      db.exec('BEGIN IMMEDIATE');
      try {
        const held = db.prepare(`SELECT count(*) AS n FROM ${this.table}`).get()!.n as number;
        if (held > 0) throw new StorageNotEmpty(`${this.path} holds ${held} entries`);
        const insert = db.prepare(`INSERT INTO ${this.table} (key, value) VALUES (?, ?)`);
        for (const { key, value } of entries) insert.run(key, Buffer.from(value));
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  private async connect(path: string): Promise<Database> {
    const Driver = await loadOptionalDriver<DatabaseConstructor>('libsql', 'strongroom/sqlite');
    const db = new Driver(path);
    db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
    return db;
  }

  private async using<T>(path: string, work: (db: Database) => T): Promise<T> {
    const db = await this.connect(path);
    try {
      return work(db);
    } finally {
      db.close();
    }
  }
}
