import { z } from 'zod';
import { decodeJson } from '../../core/store/stored-json.js';
import { checked } from './document-format.js';

/**
 * A version's data: the caller's JSON object, as it was written, stored as a blob of its own (StorageLayout.blob) or as
 * the `data` of its entry document (entry-document.ts). It has no format version: every field of it is the caller's,
 * so a later layout of version data would be a new kind of document, not a new format of this one.
 */
export const versionData = z.record(z.string(), z.unknown());

/** A version blob, read as the data it holds. */
export const versionBlob = {
  decode: (bytes: Uint8Array, key: string): Record<string, unknown> =>
    checked(versionData, decodeJson<unknown>(bytes, key), key),
};
