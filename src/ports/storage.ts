/**
 * The persistence port. A flat key space with '/' as the folder separator, deliberately as small as
 * unstorage's driver interface so that any database or KV store can back the engines. The four required members are
 * enough for one process; the optional ones let several processes share one storage exactly, and let listings page
 * without reading whole folders. Engines use an optional member whenever the storage has it.
 *
 * Order: wherever this port says "sorted" it means the byte order of the names' UTF-8 form (code point order), which
 * is what SQLite's BINARY and PostgreSQL's "C" collations give. JavaScript's default sort (UTF-16 code units) differs
 * for characters above U+FFFF; use `compareKeys` from the root entry.
 */
export interface Storage {
  /** The value of `key`; undefined when the key is absent (an empty array is a present, empty value). */
  get(key: string): Promise<Uint8Array | undefined>;
  /**
   * Creates or overwrites `key`. The storage keeps its own copy: changing `value` afterwards changes nothing stored,
   * and `value` may be a view into a larger buffer.
   */
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
  /**
   * Optional: atomically delete the key only if it currently holds exactly `expected`; resolves to whether it did. A
   * storage shared by several processes should have it beside compareAndPut: without it a delete checks, then deletes,
   * so a write another process commits in between is deleted with the key (as if it came first) and its data is left
   * unreferenced until the orphan reclaim removes it.
   */
  compareAndDelete?(key: string, expected: Uint8Array): Promise<boolean>;
  /**
   * Optional: apply every operation or none, atomically towards every other caller of the storage (other processes
   * included). Resolves to false, changing nothing, when any operation's `expected` condition does not hold; rejects
   * on a storage failure, also changing nothing (unless the failure hid a commit that took effect, which a caller
   * detects by reading back). A key appears at most once in one commit.
   */
  commit?(operations: readonly StorageOperation[]): Promise<boolean>;
  /**
   * Optional: one sorted page of what lies below `prefix` (which ends in '/' or is ''), strictly after `after` and at
   * most `limit` names, at a cost proportional to the page rather than to the folder. Without `recursive` the names are
   * those `list` gives (direct children, sub-folders ending in '/'); with it, every key below `prefix`, as its path
   * relative to `prefix`, and no folder names.
   */
  listPage?(prefix: string, options: ListPageOptions): Promise<string[]>;
  /**
   * Optional: tells this process which keys below `prefix` any process sharing the storage (this one included) changes,
   * once each change is committed, until the answer's `close`. Names only, and best effort: `reset` is called whenever
   * notifications may have been lost (a dropped connection was re-established), and the caller then reads what it
   * needs to catch up. The engines use it to deliver change events made by other processes.
   */
  watch?(prefix: string, handlers: StorageWatchHandlers): Promise<StorageWatch>;
  /**
   * Optional: true when every `get` answers an array nobody else holds or will read (a fresh copy, as the adapters of
   * this package do). EncryptedStorage then writes a remembered plaintext over that array rather than allocating
   * another; without this promise it never writes into what `get` answered, which might be the stored bytes themselves.
   */
  readonly answersCopies?: boolean;
}

/** The callbacks of `Storage.watch`. */
export interface StorageWatchHandlers {
  /** A key below the prefix was written or deleted (possibly more than once since the last call for it). */
  changed(key: string): void;
  /** Notifications may have been missed since the watch began or since the last reset. */
  reset(): void;
}

/** A running `Storage.watch`. */
export interface StorageWatch {
  /** Stops the notifications and releases what the watch holds (such as a listening connection). */
  close(): Promise<void>;
}

/**
 * One operation of an atomic commit. `expected` conditions it: omitted, unconditional; `null`, the key must be absent;
 * bytes, the key must hold exactly them.
 */
export type StorageOperation =
  | { type: 'put'; key: string; value: Uint8Array; expected?: Uint8Array | null }
  | { type: 'delete'; key: string; expected?: Uint8Array | null };

/** Which page `Storage.listPage` answers. */
export interface ListPageOptions {
  /** Only names (relative to the prefix) sorting strictly after this one. */
  after?: string;
  /** At most this many names; must be a positive integer. */
  limit: number;
  /** Every key below the prefix instead of its direct children. */
  recursive?: boolean;
}
