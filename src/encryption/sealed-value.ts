/**
 * The stored form of every value under encryption at rest:
 *
 *   byte 0      format version (1)
 *   bytes 1-4   key term, unsigned big-endian
 *   bytes 5-16  nonce: 96 random bits, fresh for every seal
 *   bytes 17-   AES-256-GCM ciphertext, then its 16-byte tag
 *
 * The additional authenticated data is the 5-byte header followed by the UTF-8 storage key, so a value copied to
 * another key, or relabelled with another term, fails to open.
 */
import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from 'node:crypto';
import { SealedValueInvalid } from '../core/errors.js';

export const FORMAT_VERSION = 1;
const HEADER_LENGTH = 5;
const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;
/** The bytes a sealed value adds to its plaintext. */
export const SEAL_OVERHEAD = HEADER_LENGTH + NONCE_LENGTH + TAG_LENGTH;

const encoder = new TextEncoder();

function header(term: number): Buffer {
  const bytes = Buffer.allocUnsafe(HEADER_LENGTH);
  bytes[0] = FORMAT_VERSION;
  bytes.writeUInt32BE(term, 1);
  return bytes;
}

function additionalData(head: Uint8Array, storageKey: string): Buffer {
  return Buffer.concat([head, encoder.encode(storageKey)]);
}

export function seal(key: KeyObject, term: number, storageKey: string, plaintext: Uint8Array): Uint8Array {
  const head = header(term);
  const nonce = randomBytes(NONCE_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_LENGTH });
  cipher.setAAD(additionalData(head, storageKey));
  return joined([head, nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/**
 * One exact-size array of its own: Buffer.concat may answer a view into Node's shared pool, whose other bytes (other
 * values) a caller could reach through `.buffer`.
 */
function joined(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function invalid(storageKey: string, reason: string): SealedValueInvalid {
  return new SealedValueInvalid(`stored entry ${JSON.stringify(storageKey)} ${reason}`);
}

/** The term a sealed value names; throws SealedValueInvalid when the bytes are not a sealed value of a known format. */
export function termOf(sealed: Uint8Array, storageKey: string): number {
  if (sealed.length < SEAL_OVERHEAD) throw invalid(storageKey, 'is too short to be a sealed value (truncated?)');
  if (sealed[0] !== FORMAT_VERSION) throw invalid(storageKey, `has an unknown sealed format version ${sealed[0]}`);
  return Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength).readUInt32BE(1);
}

/** Opens a value whose term (checked by `termOf`) is sealed with `key`. */
export function open(key: KeyObject, sealed: Uint8Array, storageKey: string): Uint8Array {
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const head = bytes.subarray(0, HEADER_LENGTH);
  const nonce = bytes.subarray(HEADER_LENGTH, HEADER_LENGTH + NONCE_LENGTH);
  const tagStart = bytes.length - TAG_LENGTH;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_LENGTH });
    decipher.setAAD(additionalData(head, storageKey));
    decipher.setAuthTag(bytes.subarray(tagStart));
    const body = decipher.update(bytes.subarray(HEADER_LENGTH + NONCE_LENGTH, tagStart));
    return joined([body, decipher.final()]);
  } catch {
    throw invalid(storageKey, 'failed authentication: altered, truncated, or copied from another key');
  }
}
