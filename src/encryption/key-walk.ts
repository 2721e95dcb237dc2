/**
 * Every key of a storage, in sorted order, one bounded page at a time, resumable after any key. Uses `listPage` when
 * the storage has it; otherwise walks folders with `list`, pruning the ones that lie wholly before the cursor.
 */
import { compareKeys } from '../lib/key-order.js';
import type { Storage } from '../ports/storage.js';

export async function keysAfter(storage: Storage, after: string | undefined, limit: number): Promise<string[]> {
  if (storage.listPage) return storage.listPage('', { recursive: true, limit, ...(after !== undefined && { after }) });
  const keys: string[] = [];
  await walk(storage, '', after, limit, keys);
  return keys;
}

/** A depth-first walk over sorted names visits keys in sorted order, since '/' is part of each compared name. */
async function walk(
  storage: Storage,
  folder: string,
  after: string | undefined,
  limit: number,
  keys: string[],
): Promise<void> {
  for (const name of await storage.list(folder)) {
    if (keys.length >= limit) return;
    const path = folder + name;
    if (name.endsWith('/')) {
      const whollyBefore = after !== undefined && compareKeys(path, after) < 0 && !after.startsWith(path);
      if (!whollyBefore) await walk(storage, path, after, limit, keys);
    } else if (after === undefined || compareKeys(path, after) > 0) {
      keys.push(path);
    }
  }
}
