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
 * `value` as a version's data, `part` naming where it was read in a CorruptDocument. Decoded JSON is a record of
 * strings to anything exactly when it is a plain object, so that one test is `versionData`'s check, without zod's walk
 * over every field on every read.
 */
export function asVersionData(value: unknown, key: string, part: string): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  throw new CorruptDocument(`stored entry ${JSON.stringify(key)} is corrupt: ${part} has the wrong shape`);
}

/** A version blob, read as the data it holds. */
export const versionBlob = {
  decode: (bytes: Uint8Array, key: string): Record<string, unknown> =>
    asVersionData(decodeJson<unknown>(bytes, key), key, 'the document itself'),
};
