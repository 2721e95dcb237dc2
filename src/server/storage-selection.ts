// Which storage `strongroom server` keeps its state in, chosen from the environment: SQLite in the data directory by
// default, PostgreSQL when STRONGROOM_STORAGE_URL says so; always behind EncryptedStorage, whose root key comes from
// STRONGROOM_ROOT_KEY or else from a key file in the data directory.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PostgresStorage } from '../adapters/storage/postgres/postgres-storage.js';
import { SqliteStorage } from '../adapters/storage/sqlite/sqlite-storage.js';
import { EncryptedStorage } from '../encryption/encrypted-storage.js';
import { StaticRootKey, loadOrCreateRootKeyFile } from '../encryption/static-root-key.js';
import type { Storage } from '../ports/storage.js';

export interface SelectedStorage {
  storage: Storage;
  /** One line for the start banner. */
  description: string;
  warnings: string[];
  close(): Promise<void>;
}

const ROOT_KEY_FILE = 'root.key';
const DATABASE_FILE = 'strongroom.db';

/** A timeout of the storage in seconds, from the environment; undefined (the storage's default) when unset. */
function timeoutFrom(env: Record<string, string | undefined>, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(seconds >= 0.1 && seconds <= 3600))
    throw new Error(`${name} must be a number of seconds from 0.1 to 3600, got ${JSON.stringify(text)}`);
  return seconds;
}

export async function selectStorage(env: Record<string, string | undefined>): Promise<SelectedStorage> {
  const dataDir = resolve(env.STRONGROOM_DATA_DIR || 'data');
  const url = env.STRONGROOM_STORAGE_URL;
  const warnings: string[] = [];
  if (url && !/^postgres(ql)?:\/\//.test(url))
    throw new Error('STRONGROOM_STORAGE_URL must be a postgres:// or postgresql:// URL');
  // Checked before anything is made in the data directory.
  const timeouts = {
    connectTimeoutSeconds: timeoutFrom(env, 'STRONGROOM_STORAGE_CONNECT_TIMEOUT'),
    statementTimeoutSeconds: timeoutFrom(env, 'STRONGROOM_STORAGE_STATEMENT_TIMEOUT'),
  };

  let key: StaticRootKey;
  if (env.STRONGROOM_ROOT_KEY) {
    key = StaticRootKey.fromBase64(env.STRONGROOM_ROOT_KEY);
  } else {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const keyFile = join(dataDir, ROOT_KEY_FILE);
    const loaded = await loadOrCreateRootKeyFile(keyFile);
    key = loaded.key;
    if (loaded.created)
      warnings.push(
        `created the root key file ${keyFile}: it sits beside the data it protects; set STRONGROOM_ROOT_KEY to keep it elsewhere`,
      );
  }

  let inner: SqliteStorage | PostgresStorage;
  let description: string;
  if (url) {
    inner = new PostgresStorage({
      connectionString: url,
      ...timeouts,
    });
    description = `PostgreSQL (${new URL(url).host}), encrypted`;
  } else {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const path = join(dataDir, DATABASE_FILE);
    inner = new SqliteStorage({ path });
    description = `SQLite ${path}, encrypted`;
  }
  const storage = new EncryptedStorage({ storage: inner, key });
  try {
    // Fails here, at start, when the key is not the one the data was encrypted with.
    await storage.open();
  } catch (error) {
    await inner.close();
    throw error;
  }
  return { storage, description, warnings, close: () => inner.close() };
}
