import { z } from 'zod';
import { isPlainObject } from '../../core/framework/fields.js';
import { CorruptDocument, decodeJson } from '../../core/store/stored-json.js';

/**
 * A version's data: the caller's JSON object, as it was written, stored as a blob of its own (StorageLayout.blob) or as
 * the `data` of its entry document (entry-document.ts). It has no format version: every field of it is the caller's,
 * so a later layout of version data would be a new kind of document, not a new format of this one.
 */
export const versionData = z.record(z.string(), z.unknown());

/**
 * A version blob, read as the data it holds. Decoded JSON is a record of strings to anything exactly when it is a
 * plain object, so that one test is `versionData`'s check, without zod's walk over every field on every read.
 */
export const versionBlob = {
  decode(bytes: Uint8Array, key: string): Record<string, unknown> {
    const data = decodeJson<unknown>(bytes, key);
    if (isPlainObject(data)) return data;
    throw new CorruptDocument(
      `stored entry ${JSON.stringify(key)} is corrupt: the document itself has the wrong shape`,
    );
  },
};
