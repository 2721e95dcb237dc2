// HMAC-SHA256 (RFC 2104) for a key that signs on every request: the key's two padded blocks are made once, and each
// message costs two one-shot hashes. node:crypto's createHmac builds a native object for every message, which made
// hashing a request's token cost more than reading the token's entry from storage.
import { createHash, hash } from 'node:crypto';

/** SHA-256's block size in bytes: a key is padded (or, when longer, hashed) to it. */
const BLOCK = 64;

/** A function answering HMAC-SHA256 of a message under `key`, hex-encoded: what `createHmac` answers, faster. */
export function hmacSha256Hex(key: Uint8Array): (message: string) => string {
  const block = Buffer.alloc(BLOCK);
  Buffer.from(key.length > BLOCK ? createHash('sha256').update(key).digest() : key).copy(block);
  const innerPad = Buffer.from(block.map((byte) => byte ^ 0x36));
  const outerPad = Buffer.from(block.map((byte) => byte ^ 0x5c));
  block.fill(0);
  return (message) => {
    const inner = hash('sha256', Buffer.concat([innerPad, Buffer.from(message)]), 'buffer');
    return hash('sha256', Buffer.concat([outerPad, inner]), 'hex');
  };
}
