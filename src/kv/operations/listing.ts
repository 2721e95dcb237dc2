import { z } from 'zod';
import { bool, int, str } from '../../core/framework/fields.js';
import type { KeyPages } from '../store/key-pages.js';
import type { KeyStore } from '../store/key-store.js';
import { findVersion, isDestroyed } from '../rules/versions.js';

/**
 * LIST metadata/<folder>/: the direct children of a folder, keys as `name` and sub-folders as `name/` (a name can be
 * both); SCAN metadata/<folder>/: every key below it as a path relative to the folder, no folder names. Both in byte
 * order of the names' UTF-8 form; `after` and `limit` page through them; `exclude_deleted` drops keys whose current
 * version has any deletion time, even a future one, or is past its destruction time, and keeps folders; names the caller may not see, or with
 * `readable_only` may not read, are left out (see listing-visibility.ts).
 */

export const listFields = z.object({
  after: str().optional().describe('Only names after this one (it need not exist).'),
  limit: int().optional().meta({ description: 'At most this many names; 0 or negative: no limit.', default: 0 }),
  exclude_deleted: bool().optional().meta({
    description: 'Leaves out keys whose current version has a deletion time, even a future one.',
    default: false,
  }),
  readable_only: bool()
    .optional()
    .describe(
      'Leaves out keys the caller may not read and folders it may not list; absent: the engine option `filterListings`.',
    ),
});
export type ListFields = z.output<typeof listFields>;

/** Decides, for a batch of listed names, which ones stay. */
export type NameFilter = (names: readonly string[]) => Promise<boolean[]>;

/** Names fetched from storage per round when the caller asked for more, or for all of them. */
const ROUND = 1000;

export interface ListOptions {
  recursive?: boolean;
  filters?: readonly NameFilter[];
}

export async function listKeys(
  pages: KeyPages,
  folder: string,
  fields: ListFields,
  options: ListOptions = {},
): Promise<string[]> {
  const limit = fields.limit !== undefined && fields.limit > 0 ? fields.limit : Number.POSITIVE_INFINITY;
  const listed: string[] = [];
  let after = fields.after;
  while (listed.length < limit) {
    const wanted = Math.min(ROUND, limit - listed.length);
    const page = await pages.page(folder, { after, limit: wanted, recursive: options.recursive });
    let kept = page;
    for (const filter of options.filters ?? []) {
      const verdicts = await filter(kept);
      kept = kept.filter((_, index) => verdicts[index]);
    }
    listed.push(...kept);
    if (page.length < wanted) break;
    after = page[page.length - 1];
  }
  return listed;
}

/**
 * The exclude_deleted filter: folders stay; a key goes when its current version has a deletion time (as in Vault), or
 * when it is past its destruction time (at `now`): no listing shows a key whose current version's lifetime is over.
 */
export function withoutDeletedHeads(keys: KeyStore, folder: string, now: number): NameFilter {
  return (names) =>
    Promise.all(
      names.map(async (name) => {
        if (name.endsWith('/')) return true;
        const key = await keys.read(`${folder}${name}`);
        const head = key && findVersion(key, key.current_version);
        if (head?.destruction !== undefined && isDestroyed(head, now)) return false;
        return head?.deletion === undefined;
      }),
    );
}
