/**
 * The persistence port. A flat key space with '/' as the folder separator, deliberately as small as
 * unstorage's driver interface so that any database or KV store can back the engines.
 */
export interface Storage {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, value: Uint8Array): Promise<void>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Direct children of `prefix` (which ends in '/' or is ''): leaf names, and sub-folder names ending in '/'; sorted.
   */
  list(prefix: string): Promise<string[]>;
  /**
   * Optional: atomically replace the value only if it currently equals `expected` (undefined = the key is absent);
   * resolves to whether it did. A storage shared by several processes implements it, and the engines then commit
   * every read-modify-write through it and retry on conflict.
   */
  compareAndPut?(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean>;
}
