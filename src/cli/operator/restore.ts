// `strongroom operator restore FILE`: loads a backup into the storage the server's environment names, which must hold
// nothing yet. The file is checked whole first (a foreign, cut-short or damaged file changes nothing), and the load is
// one transaction.
import { readFile } from 'node:fs/promises';
import { StorageNotEmpty } from '../../lib/errors.js';
import { storageLocation } from '../../server/storage/storage-location.js';
import { LocalError } from '../client/errors.js';
import type { LocalCommandSpec } from '../command/local-spec.js';
import { readBackup } from './backup-format.js';

const USAGE = `usage: strongroom operator restore FILE

Loads the backup FILE (written by "strongroom operator backup") into the server's storage (STRONGROOM_STORAGE_URL, or
the SQLite file in STRONGROOM_DATA_DIR), which must be empty: a storage that holds anything, even only the keyring a
server made at its first start, is refused and left as it was. Start the servers afterwards with the root key the
backed-up data was encrypted with.`;

/** `strongroom operator restore`. */
export const restoreSpec: LocalCommandSpec = {
  name: 'operator restore',
  summary: 'load a backup into an empty storage',
  usage: USAGE,
  args: 1,
  async run({ args: [path = ''], io }) {
    const content = await readFile(path).catch((error: Error) => {
      throw new LocalError(`cannot read ${path}: ${error.message}`);
    });
    const backup = readBackup(path, content);
    const location = await storageLocation(io.env);
    try {
      // Opening it as the server does creates what an empty storage has: the file or the table, with nothing in it.
      await location.storage.list('');
    } finally {
      await location.storage.close();
    }
    await location.copy.loadIntoEmpty(backup.entries).catch((error: unknown) => {
      if (!(error instanceof StorageNotEmpty)) throw error;
      throw new StorageNotEmpty(
        `${location.description} is not empty (${error.message}): restore loads only into an empty storage, so nothing was restored; point STRONGROOM_STORAGE_URL or STRONGROOM_DATA_DIR at a new one`,
      );
    });
    io.stdout.write(
      `Restored ${backup.entries.length} entries (backed up from ${backup.storage} at ${backup.created}) into ${location.description}\n`,
    );
  },
};
