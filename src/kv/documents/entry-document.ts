import { z } from 'zod';
import { isPlainObject } from '../../core/framework/fields.js';
import { documentFormat, storedTime } from './document-format.js';
import { storedVersion, withActors } from './head-document.js';
import { asVersionData, versionData } from './version-blob.js';

/**
 * A version's entry document (StorageLayout.entries), the authority for a version that is no longer inline in its
 * key's head record. `write` is a random id, fresh on every write of the document, so that a compareAndPut against
 * bytes read earlier fails once anyone wrote the document since, even with the same entry.
 */
const storedEntry = storedVersion.extend({
  write: z.string(),
  /** When this document was written (absent on older documents): the orphan reclaim spares fresh ones. */
  written: storedTime.optional(),
  /**
   * The version's data, for versions from the head's `documents_from` on (absent once destroyed): such a version has
   * no blob, so a write of a key keeping many versions stores one document per version, not a blob and a document.
   */
  data: versionData.optional(),
});
export type StoredEntry = z.infer<typeof storedEntry>;

/** How entry documents are read and written; format 2 came with the actors of its version, as the head's did. */
export const entryFormat = documentFormat({ shape: storedEntry, upgrades: [withActors] });

/**
 * The data a stored entry document holds (undefined: none), checked alone, as the read of a blob checks it: a read of
 * a version's data answers nothing else of the document.
 */
export function entryData(stored: unknown, key: string): Record<string, unknown> | undefined {
  const document = entryFormat.upgrade(stored, key);
  const data = isPlainObject(document) ? document.data : document;
  return data === undefined ? undefined : asVersionData(data, key, 'its data');
}
