import type { EngineRequest } from '../../core/framework/request.js';
import { now, type KvContext } from './context.js';
import { listKeys, withoutDeletedHeads, type ListFields, type NameFilter } from './listing.js';
import { visibleTo, type Visibility } from './listing-visibility.js';
import type { MetadataOperations } from './metadata-operations.js';
import type { KeyMetadata } from '../rules/views.js';

/**
 * The listings of a folder as the wire serves them: LIST and SCAN of `metadata/<folder>/` (names only) and of
 * `detailed-metadata/<folder>/` (names with each key's metadata). With an `authorize` callback, every name answered
 * has passed the caller's checks for it (listing-visibility.ts).
 */

export interface DetailedListing {
  keys: string[];
  /** Each listed key's metadata as a metadata read shows it; a folder name maps to {}. */
  key_info: Record<string, KeyMetadata | Record<string, never>>;
}

export class FolderListing {
  constructor(
    private readonly context: KvContext,
    private readonly metadata: MetadataOperations,
    /** Filter every listing by default (the engine option), not only those that ask with `readable_only`. */
    private readonly readableByDefault: boolean,
  ) {}

  names(
    request: Pick<EngineRequest, 'authorize'>,
    folder: string,
    fields: ListFields,
    recursive: boolean,
  ): Promise<string[]> {
    return this.page(request, folder, fields, recursive, false);
  }

  /** A key deleted between the listing and its metadata read is left out. */
  async detailed(
    request: Pick<EngineRequest, 'authorize'>,
    folder: string,
    fields: ListFields,
    recursive: boolean,
  ): Promise<DetailedListing> {
    const names = await this.page(request, folder, fields, recursive, true);
    const infos = await Promise.all(
      names.map((name) => (name.endsWith('/') ? Promise.resolve({}) : this.metadata.read(`${folder}${name}`))),
    );
    const listing: DetailedListing = { keys: [], key_info: {} };
    names.forEach((name, index) => {
      const info = infos[index];
      if (info === undefined) return;
      listing.keys.push(name);
      listing.key_info[name] = info;
    });
    return listing;
  }

  private page(
    request: Pick<EngineRequest, 'authorize'>,
    folder: string,
    fields: ListFields,
    recursive: boolean,
    detailed: boolean,
  ): Promise<string[]> {
    const filters: NameFilter[] = [];
    // The caller's checks come first: a name it may not see costs no storage read.
    if (request.authorize) {
      const visibility: Visibility = {
        capability: recursive ? 'scan' : 'list',
        route: detailed ? 'detailed-metadata' : 'metadata',
        detailed,
        readable: fields.readable_only ?? this.readableByDefault,
      };
      filters.push(visibleTo(request.authorize, folder, visibility));
    }
    if (fields.exclude_deleted) filters.push(withoutDeletedHeads(this.context.keys, folder, now(this.context)));
    return listKeys(this.context.pages, folder, fields, { recursive, filters });
  }
}
