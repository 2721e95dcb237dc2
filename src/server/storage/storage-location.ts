// Where `strongroom server` keeps its state, from the environment, opened as it is stored (sealed values, keyring and
// all): SQLite in the data directory by default, PostgreSQL when STRONGROOM_STORAGE_URL says so. The server wraps it in
// EncryptedStorage; the operator commands that copy or load it whole (backup, restore) use it as it is.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PostgresStorage } from '../../adapters/storage/postgres/postgres-storage.js';
import { PostgresCopy } from '../../adapters/storage/postgres/postgres-copy.js';
import { SqliteCopy } from '../../adapters/storage/sqlite/sqlite-copy.js';
import { SqliteStorage } from '../../adapters/storage/sqlite/sqlite-storage.js';
import type { StorageCopy } from '../../ports/storage-copy.js';

export interface StorageLocation {
  storage: SqliteStorage | PostgresStorage;
  /** Which storage, for banners and messages: the file, or the database's host (never its password). */
  description: string;
  /** Whole-storage copies of it, for backups and restores. */
  copy: StorageCopy;
  /** The SQLite file, which opening the storage creates (so whether it exists yet is asked first); none for PostgreSQL. */
  file?: string;
}

const DATABASE_FILE = 'strongroom.db';

/** The data directory the environment names (STRONGROOM_DATA_DIR, default `data`), as an absolute path. */
export const dataDirOf = (env: Record<string, string | undefined>): string =>
  resolve(env.STRONGROOM_DATA_DIR || 'data');

/** A timeout of the storage in seconds, from the environment; undefined (the storage's default) when unset. */
function timeoutFrom(env: Record<string, string | undefined>, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(seconds >= 0.1 && seconds <= 3600))
    throw new Error(`${name} must be a number of seconds from 0.1 to 3600, got ${JSON.stringify(text)}`);
  return seconds;
}

/** The storage the environment names, not opened yet (the adapters connect on first use). */
export async function storageLocation(env: Record<string, string | undefined>): Promise<StorageLocation> {
  const url = env.STRONGROOM_STORAGE_URL;
  // Checked before anything is made in the data directory.
  const timeouts = {
    connectTimeoutSeconds: timeoutFrom(env, 'STRONGROOM_STORAGE_CONNECT_TIMEOUT'),
    statementTimeoutSeconds: timeoutFrom(env, 'STRONGROOM_STORAGE_STATEMENT_TIMEOUT'),
  };
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url))
      throw new Error('STRONGROOM_STORAGE_URL must be a postgres:// or postgresql:// URL');
    return {
      storage: new PostgresStorage({ connectionString: url, ...timeouts }),
      description: `PostgreSQL (${new URL(url).host})`,
      copy: new PostgresCopy({ connectionString: url }),
    };
  }
  const dataDir = dataDirOf(env);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, DATABASE_FILE);
  return {
    storage: new SqliteStorage({ path }),
    description: `SQLite ${path}`,
    copy: new SqliteCopy({ path }),
    file: path,
  };
}
