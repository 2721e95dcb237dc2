/**
 * Byte equality of two stored values. Buffer.compare reads Uint8Arrays where they are: no copy (Buffer.from of a
 * Uint8Array would copy it, for small values into Node's shared pool) and no view made per call.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || (a.length === b.length && Buffer.compare(a, b) === 0);
}

/**
 * Whether the 'binary' (latin1) string `text`, one character per octet as node:crypto answers a digest, holds the
 * octets of `bytes` from `offset` to its end, in time that depends only on the lengths.
 */
export function endsWithBinary(bytes: Uint8Array, offset: number, text: string): boolean {
  let difference = (bytes.length - offset) ^ text.length;
  for (let index = 0; index < text.length; index++) difference |= ((bytes[offset + index] ?? 0x100) ^ text.charCodeAt(index));
  return difference === 0;
}
