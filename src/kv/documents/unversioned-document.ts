import { z } from 'zod';
import { documentFormat, storedTime } from './document-format.js';
import { versionData } from './version-blob.js';

/**
 * The document of one key of a KV version 1 engine (StorageLayout.unversioned): the caller's JSON object, as written,
 * inside a document of its own so that the format can grow without touching a field of the caller's.
 */
const storedUnversioned = z.object({
  data: versionData,
  /** When it was written (epoch milliseconds): the upgrade to version 2 makes it version 1's created_time. */
  written: storedTime,
});
export type StoredUnversioned = z.infer<typeof storedUnversioned>;

/** How KV version 1 documents are read and written. */
export const unversionedFormat = documentFormat({ shape: storedUnversioned });
