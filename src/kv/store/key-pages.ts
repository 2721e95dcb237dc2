import { compareKeys } from '../../lib/key-order.js';
import { InternalError, StorageUnavailable } from '../../lib/errors.js';
import type { ListPageOptions, Storage } from '../../ports/storage.js';

/**
 * Pages of key names below a storage folder, in the storage's byte order. A storage with `listPage` answers each page
 * at a cost proportional to the page; without it, a flat page reads the one folder and a recursive page walks the
 * tree depth first, one folder at a time, skipping every sub-folder that lies wholly before `after` and stopping once
 * the page is full.
 */
export class KeyPages {
  constructor(
    private readonly storage: Storage,
    /** The storage folder of a folder of keys: the heads' (StorageLayout.metadataFolder) or KV version 1's. */
    private readonly storageFolder: (folder: string) => string,
  ) {}

  /** Key names below `folder` ('' or ending in '/'): direct children (sub-folders end in '/'), or with `recursive` every key path below it. */
  async page(folder: string, options: ListPageOptions): Promise<string[]> {
    const { storage } = this;
    const prefix = this.storageFolder(folder);
    try {
      if (storage.listPage) return await storage.listPage(prefix, options);
      return options.recursive ? await walk(storage, prefix, options) : slice(await storage.list(prefix), options);
    } catch (cause) {
      if (cause instanceof StorageUnavailable) throw cause;
      throw new InternalError('storage list failed', { cause });
    }
  }
}

function slice(names: readonly string[], { after, limit }: ListPageOptions): string[] {
  const start = after === undefined ? 0 : names.findIndex((name) => compareKeys(name, after) > 0);
  return start < 0 ? [] : names.slice(start, start + limit);
}

/**
 * Depth-first over sorted folders gives the byte order of full paths: a sub-folder's names all start with `<name>/`,
 * and a sibling compares against that prefix exactly as it compares against every name below it.
 */
async function walk(storage: Storage, prefix: string, { after, limit }: ListPageOptions): Promise<string[]> {
  const page: string[] = [];
  // Each frame: a folder (relative to `prefix`) and its remaining children, smallest last so that pop() takes it.
  const stack: Array<{ folder: string; children: string[] }> = [
    { folder: '', children: (await storage.list(prefix)).reverse() },
  ];
  while (stack.length > 0 && page.length < limit) {
    const frame = stack[stack.length - 1]!;
    const child = frame.children.pop();
    if (child === undefined) {
      stack.pop();
      continue;
    }
    const path = frame.folder + child;
    if (!path.endsWith('/')) {
      if (after === undefined || compareKeys(path, after) > 0) page.push(path);
    } else if (after === undefined || after.startsWith(path) || compareKeys(path, after) > 0) {
      stack.push({ folder: path, children: (await storage.list(prefix + path)).reverse() });
    }
  }
  return page;
}
