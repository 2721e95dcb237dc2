import { sameBytes } from '../../../lib/bytes.js';
import { compareKeys } from '../../../lib/key-order.js';
import { StorageNotEmpty } from '../../../lib/errors.js';
import type { ListPageOptions, Storage, StorageOperation } from '../../../ports/storage.js';
import type { StorageCopy, StorageEntry } from '../../../ports/storage-copy.js';

interface Folder {
  leaves: Set<string>;
  subfolders: Set<string>;
}

function parentOf(key: string): { folder: string; name: string } {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? { folder: '', name: key } : { folder: key.slice(0, slash + 1), name: key.slice(slash + 1) };
}

/** A native comparison through a Buffer view of the same memory (no copy). */

/** The index of the first name sorting strictly after `after` (names.length when none does). */
function firstAfter(names: readonly string[], after: string): number {
  let low = 0;
  let high = names.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys(names[middle]!, after) > 0) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * In-memory Storage with a folder index, so `list` costs the size of one folder, not of the whole key space. Values
 * are copied in and out: callers can never mutate stored bytes.
 */
export class MemoryStorage implements Storage, StorageCopy {
  /** Every read answers an array of its own (see Storage.answersCopies). */
  readonly answersCopies = true;
  private readonly values = new Map<string, Uint8Array>();
  private readonly folders = new Map<string, Folder>([['', { leaves: new Set(), subfolders: new Set() }]]);
  /** listPage's sorted names per prefix, dropped whenever the set of keys changes. */
  private readonly sorted = new Map<string, string[]>();

  async get(key: string): Promise<Uint8Array | undefined> {
    const value = this.values.get(key);
    return value === undefined ? undefined : value.slice();
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.store(key, value);
  }

  async delete(key: string): Promise<void> {
    if (!this.values.delete(key)) return;
    this.sorted.clear();
    const { folder, name } = parentOf(key);
    this.folders.get(folder)?.leaves.delete(name);
    this.release(folder);
  }

  async list(prefix: string): Promise<string[]> {
    const folder = this.folders.get(prefix);
    if (!folder) return [];
    const names = [...folder.leaves];
    for (const sub of folder.subfolders) names.push(`${sub}/`);
    return names.sort(compareKeys);
  }

  async compareAndPut(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean> {
    if (!this.holds(key, expected ?? null)) return false;
    this.store(key, value);
    return true;
  }

  async compareAndDelete(key: string, expected: Uint8Array): Promise<boolean> {
    if (!this.holds(key, expected)) return false;
    await this.delete(key);
    return true;
  }

  async commit(operations: readonly StorageOperation[]): Promise<boolean> {
    const seen = new Set<string>();
    for (const operation of operations) {
      if (seen.has(operation.key)) throw new Error(`a commit names the key ${JSON.stringify(operation.key)} twice`);
      seen.add(operation.key);
      if (operation.expected !== undefined && !this.holds(operation.key, operation.expected)) return false;
    }
    for (const operation of operations) {
      if (operation.type === 'put') this.store(operation.key, operation.value);
      else await this.delete(operation.key);
    }
    return true;
  }

  /**
   * Sorts the folder (or, recursive, the subtree) once and keeps the order until a key is added or removed, so that
   * paging through a folder that does not change costs a binary search and the page.
   */
  async listPage(prefix: string, options: ListPageOptions): Promise<string[]> {
    const cacheKey = `${options.recursive ? 'r' : 'f'}${prefix}`;
    let names = this.sorted.get(cacheKey);
    if (!names) {
      names = options.recursive ? this.subtree(prefix).sort(compareKeys) : await this.list(prefix);
      this.sorted.set(cacheKey, names);
    }
    const after = options.after;
    const start = after === undefined ? 0 : firstAfter(names, after);
    return names.slice(start, start + options.limit);
  }

  /** Number of stored keys. */
  get size(): number {
    return this.values.size;
  }

  /** Every entry, in key order, copied at the call: later writes do not change what it yields. */
  async *snapshot(): AsyncIterable<StorageEntry> {
    const entries = [...this.values].sort(([a], [b]) => compareKeys(a, b));
    for (const [key, value] of entries) yield { key, value: value.slice() };
  }

  /** Loads `entries` when the storage holds nothing; otherwise rejects with StorageNotEmpty, changing nothing. */
  async loadIntoEmpty(entries: readonly StorageEntry[]): Promise<void> {
    if (this.values.size > 0) throw new StorageNotEmpty(`the storage holds ${this.values.size} entries`);
    for (const { key, value } of entries) this.store(key, value);
  }

  /** Whether the key holds `expected` (null: the key is absent). */
  private holds(key: string, expected: Uint8Array | null): boolean {
    const current = this.values.get(key);
    return current === undefined ? expected === null : expected !== null && sameBytes(current, expected);
  }

  /** Every key below `prefix`, relative to it, unsorted. */
  private subtree(prefix: string): string[] {
    const keys: string[] = [];
    const pending = [prefix];
    for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
      const entry = this.folders.get(folder);
      if (!entry) continue;
      const relative = folder.slice(prefix.length);
      for (const leaf of entry.leaves) keys.push(relative + leaf);
      for (const sub of entry.subfolders) pending.push(`${folder}${sub}/`);
    }
    return keys;
  }

  private store(key: string, value: Uint8Array): void {
    const isNew = !this.values.has(key);
    this.values.set(key, new Uint8Array(value));
    if (isNew) {
      this.sorted.clear();
      this.index(key);
    }
  }

  private index(key: string): void {
    const { folder, name } = parentOf(key);
    this.folderFor(folder).leaves.add(name);
  }

  private folderFor(path: string): Folder {
    let folder = this.folders.get(path);
    if (folder) return folder;
    folder = { leaves: new Set(), subfolders: new Set() };
    this.folders.set(path, folder);
    const { folder: parent, name } = parentOf(path.slice(0, -1));
    this.folderFor(parent).subfolders.add(name);
    return folder;
  }

  /** Drops `path` and its now-empty ancestors from the index, so emptied folders stop being listed. */
  private release(path: string): void {
    let current = path;
    while (current !== '') {
      const folder = this.folders.get(current);
      if (!folder || folder.leaves.size > 0 || folder.subfolders.size > 0) return;
      this.folders.delete(current);
      const { folder: parent, name } = parentOf(current.slice(0, -1));
      this.folders.get(parent)?.subfolders.delete(name);
      current = parent;
    }
  }
}
