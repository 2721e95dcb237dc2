// The mount table in storage: one entry per definition below `sys/mounts/entry/`, and `sys/mounts/version`, which
// every change rewrites in the same atomic commit. A process that holds the table compares that one small document at
// each request and reloads only when it differs: a change made by any process is seen by the next request of every
// other, on every storage, which a storage watch (optional, best effort, and late by design) could not promise.
import { randomUUID } from 'node:crypto';
import { sameBytes } from '../../lib/bytes.js';
import { InternalError } from '../../lib/errors.js';
import { encodeJson, JsonStore } from '../../core/store/stored-json.js';
import type { Storage, StorageOperation } from '../../ports/storage.js';
import { storedDefinition, type MountDefinition } from './mount-definition.js';

const VERSION_KEY = 'sys/mounts/version';
const ENTRY_PREFIX = 'sys/mounts/entry/';
const MAX_ATTEMPTS = 32;
/** Deletes in flight at once while a removed mount's data is erased. */
const ERASE_BATCH = 256;

/** The table as read: its version document's bytes (the cache's key) and its definitions, by path. */
export interface StoredTable {
  version: Uint8Array;
  definitions: readonly MountDefinition[];
}

/** What a change writes: definitions put whole (new or changed), and the uuids of definitions removed. */
export interface TableEdit {
  put?: readonly MountDefinition[];
  remove?: readonly string[];
}

export class MountTableStore {
  readonly #store: JsonStore;

  constructor(storage: Storage) {
    this.#store = new JsonStore(storage, (key) => (key.startsWith(ENTRY_PREFIX) ? storedDefinition : undefined));
  }

  /** The version document's bytes; undefined before the table's first write (an absent table). */
  version(): Promise<Uint8Array | undefined> {
    return this.#store.getRaw(VERSION_KEY);
  }

  /** The whole table, or undefined when there is none yet. The version is read first: a later change shows as new. */
  async load(): Promise<StoredTable | undefined> {
    const version = await this.version();
    if (version === undefined) return undefined;
    const names = await this.#store.list(ENTRY_PREFIX);
    const read = await Promise.all(names.map((name) => this.#store.get<MountDefinition>(ENTRY_PREFIX + name)));
    const definitions = read.filter((entry): entry is MountDefinition => entry !== undefined);
    return { version, definitions: definitions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
  }

  /**
   * Runs `edit` over the current table (undefined when there is none) and writes what it answers with a new version,
   * all at once: where the storage commits atomically, only if no other process changed the table meanwhile (else
   * `edit` runs again over the newer table, so it must be free of side effects). Callers serialise their own changes.
   * Answers what `edit` answered, or undefined when it answered nothing to write.
   */
  async change<T extends TableEdit>(edit: (table: StoredTable | undefined) => T | undefined): Promise<T | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const table = await this.load();
      const wanted = edit(table);
      if (wanted === undefined) return undefined;
      if (await this.#write(table?.version, wanted)) return wanted;
    }
    throw new InternalError('the mount table changed too often to apply a change');
  }

  /** Deletes every key below `prefix`: a removed mount's data. */
  async erase(prefix: string): Promise<void> {
    // Listed whole first: deleting while a listing pages through the same keys could skip some.
    const keys: string[] = [];
    for await (const key of this.#store.keysBelow(prefix)) keys.push(prefix + key);
    for (let start = 0; start < keys.length; start += ERASE_BATCH) {
      const failed = await this.#store.deleteEach(keys.slice(start, start + ERASE_BATCH), (key) => key);
      if (failed.length > 0) throw new InternalError(`${failed.length} keys of a removed mount could not be deleted`);
    }
  }

  async #write(expected: Uint8Array | undefined, edit: TableEdit): Promise<boolean> {
    const version = { version: randomUUID() };
    if (this.#store.canCommit) {
      const written = encodeJson(version);
      const operations: StorageOperation[] = [
        ...(edit.put ?? []).map((definition): StorageOperation => ({
          type: 'put',
          key: ENTRY_PREFIX + definition.uuid,
          value: encodeJson(definition),
        })),
        ...(edit.remove ?? []).map((uuid): StorageOperation => ({ type: 'delete', key: ENTRY_PREFIX + uuid })),
        { type: 'put', key: VERSION_KEY, value: written, expected: expected ?? null },
      ];
      try {
        return await this.#store.commit(operations);
      } catch (error) {
        // An answer lost on the way: the commit took effect when the version is the one it wrote.
        if (await this.#store.holds(VERSION_KEY, written)) return true;
        throw error;
      }
    }
    // A storage without commit serves one process: entries first, so that a version never names what is not there.
    const current = await this.version();
    const same = current === undefined || expected === undefined ? current === expected : sameBytes(current, expected);
    if (!same) return false;
    for (const definition of edit.put ?? []) await this.#store.put(ENTRY_PREFIX + definition.uuid, definition);
    for (const uuid of edit.remove ?? []) await this.#store.delete(ENTRY_PREFIX + uuid);
    await this.#store.put(VERSION_KEY, version);
    return true;
  }
}
