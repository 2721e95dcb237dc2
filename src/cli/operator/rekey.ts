// `strongroom operator rekey`: seals the keyring under a new root key, online. The old root key is the server's own
// (STRONGROOM_ROOT_KEY, or the key file in the data directory); the new one comes from STRONGROOM_NEW_ROOT_KEY or from
// -new-key-file, which is created with a fresh random key when it does not exist.
import { EncryptedStorage } from '../../encryption/encrypted-storage.js';
import { loadOrCreateRootKeyFile, StaticRootKey } from '../../encryption/static-root-key.js';
import { storageLocation } from '../../server/storage/storage-location.js';
import { LocalError, UsageError } from '../client/errors.js';
import type { FlagValue } from '../client/flags.js';
import type { LocalCommandSpec } from '../command/local-spec.js';
import { openEncryptedData } from './encrypted-data.js';

const USAGE = `usage: strongroom operator rekey -new-key-file=PATH
       STRONGROOM_NEW_ROOT_KEY=<base64> strongroom operator rekey

Seals the keyring of the server's storage under a new root key, while every server keeps serving. The current root
key comes from the server's environment (STRONGROOM_ROOT_KEY, or STRONGROOM_DATA_DIR/root.key); the new one from
STRONGROOM_NEW_ROOT_KEY (32 bytes in base64) or from -new-key-file=PATH (32 bytes, raw or base64; created with a fresh
random key, mode 0600, when PATH does not exist). Afterwards only the new key opens the storage: give it to every
server (STRONGROOM_ROOT_KEY, or the key file) before it next starts.`;

/**
 * Where the new root key comes from, checked before the storage is opened; the key file is read or made only when it
 * is wanted, so a storage with nothing to rekey gets no new key file.
 */
function newKeyFrom(flags: Readonly<Record<string, FlagValue>>, env: NodeJS.ProcessEnv) {
  const file = flags['new-key-file'] as string | undefined;
  const text = env.STRONGROOM_NEW_ROOT_KEY;
  if (file === '') throw new UsageError('-new-key-file needs a path, as -new-key-file=/etc/new.key');
  if ((file === undefined) === !text)
    throw new UsageError('give the new root key in one place: -new-key-file=PATH or STRONGROOM_NEW_ROOT_KEY');
  if (text) {
    try {
      const key = StaticRootKey.fromBase64(text);
      return () => Promise.resolve({ key, from: 'STRONGROOM_NEW_ROOT_KEY', created: false });
    } catch (error) {
      throw new LocalError(`STRONGROOM_NEW_ROOT_KEY: ${(error as Error).message}`);
    }
  }
  return async () => ({ ...(await loadOrCreateRootKeyFile(file!)), from: file! });
}

/** `strongroom operator rekey`. */
export const rekeySpec: LocalCommandSpec = {
  name: 'operator rekey',
  summary: 'seal the keyring under a new root key',
  usage: USAGE,
  flags: { 'new-key-file': 'string' },
  async run({ flags, io }) {
    const loadNewKey = newKeyFrom(flags, io.env);
    const selected = await openEncryptedData(io.env, 'rekey');
    let target: Awaited<ReturnType<typeof loadNewKey>>;
    try {
      target = await loadNewKey();
      if (target.created) io.stderr.write(`Created ${target.from} with a fresh random root key (mode 0600)\n`);
      await selected.storage.rekey(target.key);
    } finally {
      await selected.close();
    }
    // Proof from a reader of its own, as a server starting now would be: the new key opens what is stored.
    const location = await storageLocation(io.env);
    try {
      await new EncryptedStorage({ storage: location.storage, key: target.key }).open();
    } finally {
      await location.storage.close();
    }
    io.stdout.write(
      `Rekeyed ${selected.description}: the keyring is now sealed under the root key from ${target.from}, and the old root key no longer opens it. Running servers keep serving; give every server the new key before it next starts.\n`,
    );
  },
};
