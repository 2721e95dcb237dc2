/**
 * Byte equality of two stored values. Buffer.compare reads Uint8Arrays where they are: no copy (Buffer.from of a
 * Uint8Array would copy it, for small values into Node's shared pool) and no view made per call.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || (a.length === b.length && Buffer.compare(a, b) === 0);
}
