import type { StorageWatch, StorageWatchHandlers } from '../../../ports/storage.js';

/**
 * SqliteStorage's `watch`, across every process sharing the file: triggers on the table append each changed key to a
 * change log, in the writing transaction, so the log's sequence is the order of the commits. Each watch reads the log
 * past the last sequence it saw, every `intervalMs`. The log keeps the last KEPT_CHANGES changes; a watch that falls
 * further behind (its process was stopped, say) finds a gap and calls `reset`, and the engine catches up by reading,
 * as it does when PostgreSQL's listening connection drops.
 */

/** How many of the latest changes the log keeps: far more than any watch falls behind between two reads. */
export const KEPT_CHANGES = 10_000;
/** How many changes one read of the log answers; a longer backlog is read in several. */
const BATCH = 1000;

/** The part of the storage a watch reads through: a statement run with the storage's own retries on a busy file. */
export interface ChangeLogReader {
  /** Runs `work` on the open database, retrying while another process holds the lock. */
  run<T>(work: (db: { exec(sql: string): void; prepare(sql: string): Statement }) => T): Promise<T>;
}
interface Statement {
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Array<Record<string, unknown>>;
}

const logOf = (table: string) => `"${table}_changes"`;

/** Creates the change log and its triggers (idempotent; a second process's creation is a no-op). */
export function installChangeLog(db: { exec(sql: string): void }, table: string): void {
  const log = logOf(table);
  const record = (key: string) =>
    `INSERT INTO ${log} (key) VALUES (${key}); DELETE FROM ${log} WHERE seq <= (SELECT max(seq) FROM ${log}) - ${KEPT_CHANGES};`;
  // Under the write lock, so that no change commits between the log's creation and its triggers'.
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS ${log} (seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL);
      CREATE TRIGGER IF NOT EXISTS "${table}_inserted" AFTER INSERT ON "${table}" BEGIN ${record('NEW.key')} END;
      CREATE TRIGGER IF NOT EXISTS "${table}_updated" AFTER UPDATE ON "${table}" BEGIN ${record('NEW.key')} END;
      CREATE TRIGGER IF NOT EXISTS "${table}_deleted" AFTER DELETE ON "${table}" BEGIN ${record('OLD.key')} END;`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** Starts a watch whose first read reports what was committed after this call resolved. */
export async function watchChangeLog(
  reader: ChangeLogReader,
  table: string,
  intervalMs: number,
  prefix: string,
  handlers: StorageWatchHandlers,
): Promise<StorageWatch> {
  const log = logOf(table);
  const latest = `SELECT coalesce(max(seq), 0) AS seq FROM ${log}`;
  let seen = await reader.run((db) => Number(db.prepare(latest).get()!.seq));
  let reading = false;
  let closed = false;

  const read = async () => {
    if (reading || closed) return;
    reading = true;
    try {
      const rows = await reader.run((db) =>
        db.prepare(`SELECT seq, key FROM ${log} WHERE seq > ? ORDER BY seq LIMIT ${BATCH}`).all(seen),
      );
      if (closed) return;
      // Commits number the log without gaps (a rolled-back one takes its number back), so a gap is changes dropped
      // from the log before this watch read them.
      if (rows.length > 0 && Number(rows[0]!.seq) > seen + 1) {
        seen = await reader.run((db) => Number(db.prepare(latest).get()!.seq));
        handlers.reset();
        return;
      }
      for (const row of rows) {
        seen = Number(row.seq);
        const key = row.key as string;
        if (key.startsWith(prefix)) handlers.changed(key);
      }
      if (rows.length === BATCH) setImmediate(() => void read());
    } catch {
      // The file is busy or unreadable for now: the log keeps the changes, and the next read takes them.
    } finally {
      reading = false;
    }
  };
  // Unreferenced: a watch alone does not keep the process alive.
  const timer = setInterval(() => void read(), intervalMs).unref();
  return {
    close: async () => {
      closed = true;
      clearInterval(timer);
    },
  };
}
