import { z } from 'zod';
import { PermissionDenied } from '../../lib/errors.js';
import { bool, int, str } from '../../core/framework/fields.js';
import type { CapabilityCheck } from '../../core/framework/request.js';
import type { KeyStore } from '../store/key-store.js';
import { withNewKeySettings } from '../rules/metadata.js';
import type { Transferred, TransferOptions } from '../store/key-transfer.js';
import { keyPath } from '../values/key-paths.js';

/**
 * Operations on whole keys and trees: move and copy a key with its history (POST move/<key>, POST copy/<key>), and
 * delete every key below a folder (DELETE metadata/<folder>/ with recursive=true).
 */

export const transferFields = z.object({
  to: str().describe('The key to create, which must not exist yet.'),
  cas: int().optional().describe("The source's current version, which must match for the change to apply."),
});
export type TransferFields = z.output<typeof transferFields>;

export const folderDeleteFields = z.object({
  recursive: bool().optional().meta({
    description: 'Must be true: removes every key below the folder.',
    default: false,
  }),
});

/** Keys removed per batch of a folder delete: each batch is authorised whole before any of it is removed. */
const BATCH = 100;

/** The capability callback of a request, or one that allows everything when the caller checks nothing. */
export type Authorize = (check: CapabilityCheck) => boolean | Promise<boolean>;

/** Whether the caller holds every check; without a callback nothing is checked. Only `true` grants. */
export async function holds(authorize: Authorize | undefined, checks: readonly CapabilityCheck[]): Promise<boolean> {
  if (!authorize) return true;
  for (const check of checks) if ((await authorize(check)) !== true) return false;
  return true;
}

export async function requireRights(
  authorize: Authorize | undefined,
  checks: readonly CapabilityCheck[],
): Promise<void> {
  if (!(await holds(authorize, checks))) throw new PermissionDenied();
}

/**
 * A move needs `read` and `delete` on the source (its data and its metadata), a copy `read`; both need `create` on
 * the target, which must not exist yet. Those let the caller read the source's readable versions and place them at
 * the target, and no more:
 * - a version soft-deleted at the source is data the caller could not read there (only an undelete could bring it
 *   back), so it arrives destroyed, without its data, unless the caller may `update` on `undelete/<from>`;
 * - the key-level metadata (custom_metadata and the settings) arrives only when the caller may `read` it on
 *   `metadata/<from>` and `create` it on `metadata/<to>`; otherwise the target starts with a new key's.
 * These two are never a refusal: they decide what the transfer carries.
 */
export async function transferKey(
  keys: KeyStore,
  from: string,
  fields: TransferFields,
  keepSource: boolean,
  authorize?: Authorize,
): Promise<Transferred & { to: string }> {
  const to = keyPath(fields.to);
  await requireRights(authorize, [
    { capability: 'read', path: `data/${from}` },
    ...(keepSource ? [] : [{ capability: 'delete' as const, path: `metadata/${from}` }]),
    { capability: 'create', path: `data/${to}` },
  ]);
  const carryDeleted = await holds(authorize, [{ capability: 'update', path: `undelete/${from}` }]);
  const carryMetadata = await holds(authorize, [
    { capability: 'read', path: `metadata/${from}` },
    { capability: 'create', path: `metadata/${to}` },
  ]);
  const options: TransferOptions = { keepSource, carryDeleted };
  if (!carryMetadata) options.keyMetadata = withNewKeySettings;
  if (fields.cas !== undefined) options.cas = fields.cas;
  return { ...(await keys.transfer(from, to, options)), to };
}

/**
 * Removes every key below the folder, one key at a time (each key goes whole or not at all), in batches that are
 * each authorised (`delete` on every key's `metadata/` path) before any of them is removed. It enumerates the folder,
 * so it first needs `list` on `metadata/<folder>` too (besides the route's `delete` there). Interrupted, it leaves
 * some keys removed and the others whole; running it again finishes. Answers how many keys it removed.
 */
export async function deleteFolder(
  keys: KeyStore,
  folder: string,
  authorize?: Authorize,
  // The engine passes its own removal, which also makes the change event of each key.
  remove: (path: string) => Promise<void> = (path) => keys.remove(path),
): Promise<number> {
  await requireRights(authorize, [{ capability: 'list', path: `metadata/${folder}` }]);
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    await requireRights(
      authorize,
      batch.map((path) => ({ capability: 'delete', path: `metadata/${path}` })),
    );
    // Every removal of the batch finishes before a failure is answered, so the answer never races a removal.
    const failed = (await Promise.allSettled(batch.map(remove))).find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    removed += batch.length;
    batch = [];
  };
  for await (const name of keys.keysBelow(folder)) {
    batch.push(folder + name);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return removed;
}
