/**
 * Whole-table copies of a `PostgresStorage`, for backups and restores, through one connection of their own. The
 * snapshot is one REPEATABLE READ, READ ONLY transaction: every page of it sees the table as it was when its first
 * statement ran, whatever other processes commit meanwhile. The load takes a lock that lets readers through but no
 * writer, checks that the table is empty, and inserts everything in the same transaction.
 */
import { StorageNotEmpty } from '../../../lib/errors.js';
import type { StorageCopy, StorageEntry } from '../../../ports/storage-copy.js';
import { loadOptionalDriver } from '../optional-driver.js';
import type { PostgresStorageOptions } from './postgres-storage.js';
import { checkConnectionString, describeServer } from './postgres-url.js';

type Row = Record<string, unknown>;
interface Sql {
  unsafe(query: string, params?: unknown[]): Promise<Row[]>;
  end(options?: { timeout?: number }): Promise<void>;
}
type Connect = (url: string, options: Record<string, unknown>) => Sql;

/** Rows per statement: bounds memory while the snapshot is read, and the parameters of one insert. */
const PAGE = 500;

/** The copy side of the `PostgresStorage` at `connectionString` (whose table `PostgresStorage` has created). */
export class PostgresCopy implements StorageCopy {
  private readonly connectionString: string;
  private readonly table: string;

  /** The database and table, as the `PostgresStorage` over them was given them. */
  constructor({ connectionString, table = 'strongroom' }: Pick<PostgresStorageOptions, 'connectionString' | 'table'>) {
    checkConnectionString(connectionString);
    this.connectionString = connectionString;
    this.table = table
      .split('.')
      .map((part) => `"${part}"`)
      .join('.');
  }

  async *snapshot(): AsyncIterable<StorageEntry> {
    const sql = await this.connect();
    try {
      // One connection (max 1), so the transaction's statements all run in it.
      await sql.unsafe('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const page = `SELECT key, value FROM ${this.table} WHERE key > $1 ORDER BY key LIMIT ${PAGE}`;
      for (let after = ''; ;) {
        const rows = await sql.unsafe(page, [after]);
        for (const row of rows) yield { key: row.key as string, value: new Uint8Array(row.value as Buffer) };
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1]!.key as string;
      }
      await sql.unsafe('COMMIT');
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  async loadIntoEmpty(entries: readonly StorageEntry[]): Promise<void> {
    const sql = await this.connect();
    try {
      await sql.unsafe('BEGIN');
      try {
        // SHARE ROW EXCLUSIVE: no other transaction writes the table until this one ends; reads go on.
        await sql.unsafe(`LOCK TABLE ${this.table} IN SHARE ROW EXCLUSIVE MODE`);
        const [{ held }] = (await sql.unsafe(`SELECT count(*)::int AS held FROM ${this.table}`)) as [{ held: number }];
        if (held > 0)
          throw new StorageNotEmpty(`the table at ${describeServer(this.connectionString)} holds ${held} entries`);
        for (let start = 0; start < entries.length; start += PAGE) {
          const rows = entries.slice(start, start + PAGE);
          const values = rows.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(', ');
          const params = rows.flatMap(({ key, value }) => [key, Buffer.from(value)]);
          await sql.unsafe(`INSERT INTO ${this.table} (key, value) VALUES ${values}`, params);
        }
        await sql.unsafe('COMMIT');
      } catch (error) {
        await sql.unsafe('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  private async connect(): Promise<Sql> {
    const connect = await loadOptionalDriver<Connect>('postgres', 'strongroom/postgres');
    return connect(this.connectionString, { max: 1, connect_timeout: 10, prepare: false, onnotice: () => undefined });
  }
}
