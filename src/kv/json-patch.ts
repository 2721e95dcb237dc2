import jsonpatch, { type Operation } from 'fast-json-patch';
import { z } from 'zod';
import { InvalidRequest } from '../core/errors.js';

/**
 * RFC 6902 JSON Patch, the extension of DECISIONS 3 and 23: `data` holds the operations and they apply to the current
 * version's data. Operations are checked here first so that every malformed one gets a 400 naming it.
 */

const pointer = z.string().refine((text) => text === '' || text.startsWith('/'), 'must be a JSON pointer ("" or starting with "/")');
const withValue = z.object({ path: pointer, value: z.unknown().refine((value) => value !== undefined, 'is required') });
const withFrom = z.object({ path: pointer, from: pointer });

export const jsonPatchOperations = z.array(
  z.discriminatedUnion('op', [
    withValue.extend({ op: z.literal('add') }),
    withValue.extend({ op: z.literal('replace') }),
    withValue.extend({ op: z.literal('test') }),
    z.object({ op: z.literal('remove'), path: pointer }),
    withFrom.extend({ op: z.literal('move') }),
    withFrom.extend({ op: z.literal('copy') }),
  ]),
);
export type JsonPatchOperation = z.output<typeof jsonPatchOperations>[number];

/**
 * Applies the operations to a copy of `document`. A failing operation is a 400 that names the operation and the
 * reason, never the document (it holds secrets).
 */
export function applyJsonPatch(document: unknown, operations: readonly JsonPatchOperation[]): unknown {
  try {
    // validate = true checks each operation against the document; the last argument keeps the default ban on
    // writes through "__proto__" and "constructor/prototype".
    return jsonpatch.applyPatch(document, operations as Operation[], true, false, true).newDocument;
  } catch (error) {
    if (error instanceof jsonpatch.JsonPatchError) {
      throw new InvalidRequest(`JSON Patch operation ${String(error.index ?? 0)} (${operations[error.index ?? 0]?.op ?? 'unknown'}) failed: ${error.name}`);
    }
    if (error instanceof TypeError && error.message.includes('banned')) throw new InvalidRequest('JSON Patch may not modify "__proto__" or "constructor/prototype"');
    throw error;
  }
}
