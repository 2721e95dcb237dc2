// Which storage `strongroom server` keeps its state in, chosen from the environment: SQLite in the data directory by
// default, PostgreSQL when STRONGROOM_STORAGE_URL says so; always behind EncryptedStorage, whose root key comes from
// STRONGROOM_ROOT_KEY or else from a key file in the data directory.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { EncryptedStorage } from '../encryption/encrypted-storage.js';
import { StaticRootKey, loadOrCreateRootKeyFile } from '../encryption/static-root-key.js';
import { dataDirOf, storageLocation } from './storage-location.js';

export interface SelectedStorage {
  storage: EncryptedStorage;
  /** One line for the start banner. */
  description: string;
  warnings: string[];
  close(): Promise<void>;
}

const ROOT_KEY_FILE = 'root.key';

export async function selectStorage(env: Record<string, string | undefined>): Promise<SelectedStorage> {
  const dataDir = dataDirOf(env);
  const warnings: string[] = [];
  const { storage: inner, description: where } = await storageLocation(env);
  const description = `${where}, encrypted`;

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
