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
import { createCipheriv, createDecipheriv, randomFillSync, type KeyObject } from 'node:crypto';
import { SealedValueInvalid } from '../lib/errors.js';

export const FORMAT_VERSION = 1;
const HEADER_LENGTH = 5;
const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;
/** The bytes a sealed value adds to its plaintext. */
export const SEAL_OVERHEAD = HEADER_LENGTH + NONCE_LENGTH + TAG_LENGTH;

/** Random nonces drawn a thousand at a time: one call into the CSPRNG per value costs as much as the encryption. */
const noncePool = new Uint8Array(NONCE_LENGTH * 1024);
let noncePosition = noncePool.length;

/** 96 fresh random bits, as a view of the pool: each position is handed out once, and used before the pool refills. */
function nextNonce(): Uint8Array {
  if (noncePosition === noncePool.length) {
    randomFillSync(noncePool);
    noncePosition = 0;
  }
  const start = noncePosition;
  noncePosition += NONCE_LENGTH;
  return noncePool.subarray(start, noncePosition);
}

/** Options of every decipher (read, never kept or changed, by node:crypto): setAuthTag then takes full tags only. */
const CIPHER_OPTIONS = { authTagLength: TAG_LENGTH };

/**
 * The additional data (header, then the UTF-8 storage key), assembled in one reused array: it holds no secret, and
 * setAAD has taken its copy before the next value is sealed or opened. Storage keys are mostly ASCII, which is copied
 * here directly; anything else goes through the encoder.
 */
let scratch = new Uint8Array(256);
const encoder = new TextEncoder();

function additionalData(version: number, term: number, storageKey: string): Uint8Array {
  const length = storageKey.length;
  // A UTF-16 code unit takes at most 3 bytes of UTF-8.
  if (HEADER_LENGTH + length * 3 > scratch.length)
    scratch = new Uint8Array(Math.max(HEADER_LENGTH + length * 3, scratch.length * 2));
  scratch[0] = version;
  scratch[1] = term >>> 24;
  scratch[2] = (term >>> 16) & 0xff;
  scratch[3] = (term >>> 8) & 0xff;
  scratch[4] = term & 0xff;
  for (let index = 0; index < length; index++) {
    const code = storageKey.charCodeAt(index);
    if (code >= 0x80)
      return scratch.subarray(
        0,
        HEADER_LENGTH + encoder.encodeInto(storageKey, scratch.subarray(HEADER_LENGTH)).written,
      );
    scratch[HEADER_LENGTH + index] = code;
  }
  return scratch.subarray(0, HEADER_LENGTH + length);
}

/** The length of `plaintext` once sealed. */
export const sealedLength = (plaintext: Uint8Array) => SEAL_OVERHEAD + plaintext.length;

/**
 * One exact-size array of its own, written in place: a Buffer from Node's shared pool (as Buffer.concat may answer)
 * would let whoever holds the sealed value reach other values' bytes through `.buffer`.
 */
export function seal(key: KeyObject, term: number, storageKey: string, plaintext: Uint8Array): Uint8Array {
  return sealInto(new Uint8Array(sealedLength(plaintext)), key, term, storageKey, plaintext);
}

/** Seals `plaintext` into `out`, which is exactly `sealedLength(plaintext)` long; answers `out`. */
export function sealInto(
  out: Uint8Array,
  key: KeyObject,
  term: number,
  storageKey: string,
  plaintext: Uint8Array,
): Uint8Array {
  out[0] = FORMAT_VERSION;
  out[1] = term >>> 24;
  out[2] = (term >>> 16) & 0xff;
  out[3] = (term >>> 8) & 0xff;
  out[4] = term & 0xff;
  const nonce = nextNonce();
  out.set(nonce, HEADER_LENGTH);
  // GCM's tag is 16 bytes unless asked otherwise; passing the option only costs its validation here.
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(additionalData(FORMAT_VERSION, term, storageKey));
  const body = cipher.update(plaintext);
  // GCM is a stream mode: everything comes out of update, final only computes the tag.
  if (body.length !== plaintext.length || cipher.final().length !== 0)
    throw new Error('AES-GCM changed the length of a value');
  out.set(body, HEADER_LENGTH + NONCE_LENGTH);
  out.set(cipher.getAuthTag(), out.length - TAG_LENGTH);
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
  const nonce = bytes.subarray(HEADER_LENGTH, HEADER_LENGTH + NONCE_LENGTH);
  const tagStart = bytes.length - TAG_LENGTH;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, CIPHER_OPTIONS);
    decipher.setAAD(additionalData(bytes[0]!, bytes.readUInt32BE(1), storageKey));
    decipher.setAuthTag(bytes.subarray(tagStart));
    const body = decipher.update(bytes.subarray(HEADER_LENGTH + NONCE_LENGTH, tagStart));
    // final checks the tag; GCM answers nothing more there.
    if (decipher.final().length !== 0) throw new Error('AES-GCM changed the length of a value');
    // update answers an exact-size array of its own; a plain Uint8Array view of it, whose slice() copies as callers expect.
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  } catch {
    throw invalid(storageKey, 'failed authentication: altered, truncated, or copied from another key');
  }
}
