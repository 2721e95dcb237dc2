/** The folder of the wrapped storage that holds the keyring and the rewrap cursor; hidden from the barrier's users. */
export const RESERVED_FOLDER = '.encryption/';

/** The engines never use the folder: a key in it is refused before it could overwrite or expose the keyring. */
export function checkKey(key: string): void {
  if (key.startsWith(RESERVED_FOLDER))
    throw new Error(`the storage key ${JSON.stringify(key)} is reserved for the keyring`);
}
