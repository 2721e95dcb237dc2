import { z } from 'zod';
import { bool, int, str } from '../core/fields.js';
import type { KeyStore } from './key-store.js';
import { findVersion } from './versions.js';
import { compareKeys as compareNames } from '../core/key-order.js';

/**
 * LIST metadata/<folder>/: the direct children of a folder, keys as `name` and sub-folders as `name/` (a name can be
 * both), in byte order of their UTF-8 form. `after` and `limit` page through them (DECISIONS 5); `exclude_deleted`
 * drops keys whose current version has any deletion time, even a future one, and keeps folders.
 */

export const listFields = z.object({
  after: str().optional(),
  /** 0 or negative: no limit. */
  limit: int().optional(),
  exclude_deleted: bool().optional(),
});
export type ListFields = z.output<typeof listFields>;

async function hasDeletedHead(keys: KeyStore, path: string): Promise<boolean> {
  const key = await keys.read(path);
  const head = key && findVersion(key, key.current_version);
  return head?.deletion !== undefined;
}

export async function listKeys(keys: KeyStore, folder: string, options: ListFields): Promise<string[]> {
  const names = (await keys.names(folder)).sort(compareNames);
  const limit = options.limit !== undefined && options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY;
  const listed: string[] = [];
  for (const name of names) {
    if (listed.length >= limit) break;
    if (options.after !== undefined && compareNames(name, options.after) <= 0) continue;
    if (options.exclude_deleted && !name.endsWith('/') && (await hasDeletedHead(keys, `${folder}${name}`))) continue;
    listed.push(name);
  }
  return listed;
}
