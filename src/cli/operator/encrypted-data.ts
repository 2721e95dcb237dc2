// The storage rewrap and rekey work on, opened as the server opens it, but only when it holds encrypted data: on a
// storage with no keyring yet they would make a root key and a keyring for nothing, so they refuse instead.
import { NothingEncrypted, selectStorage, type SelectedStorage } from '../../server/storage/storage-selection.js';
import { LocalError } from '../client/errors.js';

/** The encrypted storage of the server's environment; one without a keyring yet is a refusal (`nothing to VERB`). */
export function openEncryptedData(env: NodeJS.ProcessEnv, verb: string): Promise<SelectedStorage> {
  return selectStorage(env, { encryptedOnly: true }).catch((error: unknown) => {
    if (error instanceof NothingEncrypted) throw new LocalError(`nothing to ${verb}: ${error.message}`);
    throw error;
  });
}
