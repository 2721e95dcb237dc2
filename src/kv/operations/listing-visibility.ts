import type { BulkAuthorizer, CapabilityCheck, EngineRequest } from '../../core/framework/request.js';
import type { NameFilter } from './listing.js';

/**
 * Which names of a listing page the caller may be answered. The route's own check covers only the folder asked for;
 * a deny below it (on a sub-folder, a key, a whole sub-tree) must still hide what it covers, and a SCAN reaches names
 * at any depth. So every name is asked about on its own path, never inferred from the folder's verdict:
 * - always: the listing's capability (`list` or `scan`) on `<route>/<folder><name>`, marked `listing`: the folder's
 *   grant covers its names as in Vault, so the Acl hides only a denied one (an authorizer that ignores the mark hides
 *   more, never less);
 * - a key of a detailed listing, which answers its metadata: `read` on `metadata/<folder><name>`;
 * - with `readable_only`: a key needs `read` on `data/<folder><name>`, a sub-folder `list` on `metadata/<folder><name>`
 *   (on a LIST of `metadata/`, the sub-folder's listing check itself, asked once and unmarked: a grant there also
 *   answers the milder question).
 * These further checks are strict grants: they answer metadata or promise that a name can be read, more than a name.
 * A name stays only when every one of its checks answers exactly `true`. A whole page is one call when the callback
 * has `many` (the Acl's authorizer does), otherwise one call per check, all at once.
 */

type Authorize = NonNullable<EngineRequest['authorize']>;

export interface Visibility {
  /** The capability the listing itself needed: `list` for LIST, `scan` for SCAN. */
  capability: 'list' | 'scan';
  /**
   * The route the listing was asked on: its names are checked under the same one. '' is a KV version 1 engine, whose
   * keys are their own paths; it has no detailed or readable-only listings.
   */
  route: 'metadata' | 'detailed-metadata' | '';
  /** A detailed listing: each key's metadata is answered. */
  detailed: boolean;
  /** Only what the caller may read (readable_only, or the engine's filterListings). */
  readable: boolean;
}

async function verdicts(authorize: Authorize, checks: readonly CapabilityCheck[]): Promise<readonly unknown[]> {
  const many = (authorize as Partial<BulkAuthorizer>).many;
  return typeof many === 'function'
    ? await many.call(authorize, checks)
    : await Promise.all(checks.map((check) => authorize(check)));
}

/**
 * The filter of a listing page: a name stays when the caller passes every check of it. The checks go kind by kind (all
 * listing checks, then the further ones), each path one concatenation onto a folder path built once per page, and
 * consecutive checks share a folder, which is what the Acl's bulk evaluator is quickest at.
 */
export function visibleTo(authorize: Authorize, folder: string, visibility: Visibility): NameFilter {
  const listed = visibility.route === '' ? folder : `${visibility.route}/${folder}`;
  const metadata = `metadata/${folder}`;
  const data = `data/${folder}`;
  // On a LIST of metadata/, a sub-folder's readable check is its listing check, asked strictly.
  const listsMetadata = visibility.capability === 'list' && visibility.route === 'metadata';
  const strictFolders = listsMetadata && visibility.readable;
  return async (names) => {
    const checks: CapabilityCheck[] = names.map((name) =>
      strictFolders && name.endsWith('/')
        ? { capability: 'list', path: listed + name }
        : { capability: visibility.capability, path: listed + name, listing: true },
    );
    // For each check after the listing ones, the index of the name it is about.
    const about: number[] = [];
    const ask = (index: number, check: CapabilityCheck) => {
      checks.push(check);
      about.push(index);
    };
    if (visibility.detailed) {
      names.forEach((name, index) => {
        if (!name.endsWith('/')) ask(index, { capability: 'read', path: metadata + name });
      });
    }
    if (visibility.readable) {
      names.forEach((name, index) => {
        if (!name.endsWith('/')) ask(index, { capability: 'read', path: data + name });
        else if (!listsMetadata) ask(index, { capability: 'list', path: metadata + name });
      });
    }
    const answers = await verdicts(authorize, checks);
    const granted = names.map((_, index) => answers[index] === true);
    about.forEach((index, further) => {
      if (answers[names.length + further] !== true) granted[index] = false;
    });
    return granted;
  };
}
