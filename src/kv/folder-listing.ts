import type { BulkAuthorizer, CapabilityCheck, EngineRequest } from '../core/request.js';
import type { KvContext } from './context.js';
import { listKeys, withoutDeletedHeads, type ListFields, type NameFilter } from './listing.js';
import type { MetadataOperations } from './metadata-operations.js';
import type { KeyMetadata } from './views.js';

/**
 * The listings of a folder as the wire serves them: LIST and SCAN of `metadata/<folder>/` (names only) and of
 * `detailed-metadata/<folder>/` (names with each key's metadata), optionally narrowed to what the caller may read.
 */

export interface DetailedListing {
  keys: string[];
  /** Each listed key's metadata as a metadata read shows it; a folder name maps to {}. */
  key_info: Record<string, KeyMetadata | Record<string, never>>;
}

type Authorize = NonNullable<EngineRequest['authorize']>;

/**
 * A key stays when the caller may read its data (`read` on `data/<key>`), a sub-folder when the caller may list it
 * (`list` on `metadata/<folder>/`). One bulk call per page when the callback offers `many`.
 */
export function readableOnly(authorize: Authorize, folder: string): NameFilter {
  return async (names) => {
    const checks: CapabilityCheck[] = names.map((name) =>
      name.endsWith('/') ? { capability: 'list', path: `metadata/${folder}${name}` } : { capability: 'read', path: `data/${folder}${name}` },
    );
    const many = (authorize as Partial<BulkAuthorizer>).many;
    const verdicts = typeof many === 'function' ? await many.call(authorize, checks) : await Promise.all(checks.map((check) => authorize(check)));
    return checks.map((_, index) => verdicts[index] === true);
  };
}

export class FolderListing {
  constructor(
    private readonly context: KvContext,
    private readonly metadata: MetadataOperations,
    /** Filter every listing by default (the engine option), not only those that ask with `readable_only`. */
    private readonly readableByDefault: boolean,
  ) {}

  names(request: Pick<EngineRequest, 'authorize'>, folder: string, fields: ListFields, recursive: boolean): Promise<string[]> {
    const filters: NameFilter[] = [];
    if (fields.exclude_deleted) filters.push(withoutDeletedHeads(this.context.keys, folder));
    if ((fields.readable_only ?? this.readableByDefault) && request.authorize) filters.push(readableOnly(request.authorize, folder));
    return listKeys(this.context.pages, folder, fields, { recursive, filters });
  }

  /** A key deleted between the listing and its metadata read is left out. */
  async detailed(request: Pick<EngineRequest, 'authorize'>, folder: string, fields: ListFields, recursive: boolean): Promise<DetailedListing> {
    const names = await this.names(request, folder, fields, recursive);
    const infos = await Promise.all(names.map((name) => (name.endsWith('/') ? {} : this.metadata.read(`${folder}${name}`))));
    const listing: DetailedListing = { keys: [], key_info: {} };
    names.forEach((name, index) => {
      const info = infos[index];
      if (info === undefined) return;
      listing.keys.push(name);
      listing.key_info[name] = info;
    });
    return listing;
  }
}
