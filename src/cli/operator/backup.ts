// `strongroom operator backup FILE`: a consistent online snapshot of the whole storage the server's environment names,
// written to a new file of mode 0600. The values stay sealed: the backup holds no root key and needs none.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createPrivateFile } from '../../lib/private-file.js';
import { storageLocation } from '../../server/storage/storage-location.js';
import { LocalError } from '../client/errors.js';
import type { LocalCommandSpec } from '../command/local-spec.js';
import { BackupWriter } from './backup-format.js';

const USAGE = `usage: strongroom operator backup FILE

Writes every entry of the server's storage (STRONGROOM_STORAGE_URL, or the SQLite file in STRONGROOM_DATA_DIR) to
FILE, a new file of mode 0600, as of one instant, while the servers keep serving: SQLite through VACUUM INTO,
PostgreSQL through one repeatable-read transaction. Values stay encrypted; keep the root key elsewhere than the backup.`;

/** `strongroom operator backup`. */
export const backupSpec: LocalCommandSpec = {
  name: 'operator backup',
  summary: 'write a consistent snapshot of the storage to a file',
  usage: USAGE,
  args: 1,
  async run({ args: [path = ''], io }) {
    const location = await storageLocation(io.env);
    // Reading a SQLite file that does not exist would create an empty one, and then fail on its missing table.
    if (location.file !== undefined && !existsSync(location.file)) {
      await location.storage.close();
      throw new LocalError(`nothing to back up: ${location.file} does not exist`);
    }
    const file = await createPrivateFile(path).catch((error: Error) => {
      throw new LocalError(`cannot create ${path}: ${error.message}`);
    });
    if (!file) throw new LocalError(`${path} exists already: name a new file`);
    let count: number;
    try {
      const writer = new BackupWriter(file);
      await writer.begin(location.description, new Date());
      for await (const entry of location.copy.snapshot()) await writer.entry(entry);
      count = await writer.finish();
    } catch (error) {
      // No half backup is left behind to be mistaken for a whole one.
      await file.close();
      await rm(path, { force: true });
      throw error;
    } finally {
      await location.storage.close();
    }
    await file.close();
    io.stdout.write(`Wrote ${count} entries of ${location.description} to ${path}\n`);
  },
};
