// Which storage `strongroom server` keeps its state in, chosen from the environment: SQLite in the data directory by
// default, PostgreSQL when STRONGROOM_STORAGE_URL says so; always behind EncryptedStorage, whose root key comes from
// STRONGROOM_ROOT_KEY or else from a key file in the data directory, made only for a storage not yet encrypted.
import { access, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EncryptedStorage, holdsKeyring } from '../../encryption/encrypted-storage.js';
import { StaticRootKey, loadOrCreateRootKeyFile } from '../../encryption/static-root-key.js';
import { WrongRootKey } from '../../lib/errors.js';
import type { Storage } from '../../ports/storage.js';
import { dataDirOf, storageLocation } from './storage-location.js';

export interface SelectedStorage {
  storage: EncryptedStorage;
  /** One line for the start banner. */
  description: string;
  warnings: string[];
  close(): Promise<void>;
}

/** Options of {@link selectStorage}. */
export interface SelectOptions {
  /**
   * Only a storage that holds a keyring already (encrypted data) is opened; another is refused with
   * {@link NothingEncrypted}, and neither a key file nor a database file nor a keyring is made for it.
   */
  encryptedOnly?: boolean;
}

/** The storage holds no keyring yet: nothing in it was encrypted, so there is nothing for a key operation to do. */
export class NothingEncrypted extends Error {
  override readonly name = 'NothingEncrypted';
  constructor(where: string) {
    super(`${where} holds no encrypted data yet`);
  }
}

const ROOT_KEY_FILE = 'root.key';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The root key: STRONGROOM_ROOT_KEY, else the key file, which is made only when the storage holds no keyring yet. A
 * key file made for data encrypted under another key would be wrong, and every later start would reuse it.
 */
async function rootKeyFor(
  env: Record<string, string | undefined>,
  keyFile: string,
  inner: Storage,
  where: string,
  warnings: string[],
): Promise<StaticRootKey> {
  if (env.STRONGROOM_ROOT_KEY) return StaticRootKey.fromBase64(env.STRONGROOM_ROOT_KEY);
  if (!(await exists(keyFile)) && (await holdsKeyring(inner)))
    throw new Error(
      `the data in ${where} was encrypted with a root key this start was not given: set STRONGROOM_ROOT_KEY to that key ` +
        `(base64), or put the key file it was made with at ${keyFile}; no key file was made`,
    );
  await mkdir(dirname(keyFile), { recursive: true, mode: 0o700 });
  const loaded = await loadOrCreateRootKeyFile(keyFile);
  if (loaded.created)
    warnings.push(
      `created the root key file ${keyFile}: it sits beside the data it protects; set STRONGROOM_ROOT_KEY to keep it elsewhere`,
    );
  return loaded.key;
}

export async function selectStorage(
  env: Record<string, string | undefined>,
  options: SelectOptions = {},
): Promise<SelectedStorage> {
  const dataDir = dataDirOf(env);
  const warnings: string[] = [];
  const { storage: inner, description: where, file } = await storageLocation(env);
  const keyFile = join(dataDir, ROOT_KEY_FILE);
  try {
    // The file is looked for before the storage is opened, since opening SQLite creates it.
    if (options.encryptedOnly && ((file !== undefined && !(await exists(file))) || !(await holdsKeyring(inner))))
      throw new NothingEncrypted(where);
    const storage = new EncryptedStorage({
      storage: inner,
      key: await rootKeyFor(env, keyFile, inner, where, warnings),
    });
    // Fails here, at start, when the key is not the one the data was encrypted with.
    await storage.open().catch((error: unknown) => {
      if (!(error instanceof WrongRootKey)) throw error;
      const source = env.STRONGROOM_ROOT_KEY ? 'STRONGROOM_ROOT_KEY' : `the key file ${keyFile}`;
      // Still a WrongRootKey, so that the operator commands answer it as a refusal the operator can act on (exit 1).
      throw new WrongRootKey(
        `${error.message}. This key came from ${source}; give the key the data in ${where} was encrypted with, in ` +
          `STRONGROOM_ROOT_KEY (base64) or in the key file ${keyFile} (used when STRONGROOM_ROOT_KEY is not set)`,
      );
    });
    return { storage, description: `${where}, encrypted`, warnings, close: () => storage.close() };
  } catch (error) {
    await inner.close();
    throw error;
  }
}
