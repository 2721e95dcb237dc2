import { constants, hash as digestOf, publicDecrypt, timingSafeEqual, type KeyObject } from 'node:crypto';

export type RsaHash = 'sha1' | 'sha256';

/** The DER of a DigestInfo up to its digest octets (RFC 8017 §9.2, note 1), NULL parameters included. */
const DIGEST_INFO_PREFIXES: Record<RsaHash, Buffer> = {
  sha1: Buffer.from('3021300906052b0e03021a05000414', 'hex'),
  sha256: Buffer.from('3031300d060960864801650304020105000420', 'hex'),
};
const DIGEST_LENGTHS: Record<RsaHash, number> = { sha1: 20, sha256: 32 };
/** RFC 8017 §9.2 steps 3-4: the padding string is at least 8 octets, so an encoding needs 11 octets beyond its DigestInfo. */
const MIN_PADDING = 8;

/**
 * The digest of `data` as a Buffer, asked of node:crypto as a 'binary' string (one character per octet): Node 20
 * answers that in under half the time it takes to answer a Buffer, and the string converts back in a fraction of it.
 */
export function binaryDigest(hash: RsaHash, data: Uint8Array): Buffer {
  return Buffer.from(digestOf(hash, data, 'binary'), 'latin1');
}

/**
 * RSASSA-PKCS1-v1_5 signature verification (RFC 8017 §8.2.2) done the way the standard writes it: the signature goes
 * through the bare RSA operation, and the whole block that comes out is compared, in time independent of where it
 * differs, with the one encoding a signature of this digest can have (0x00 0x01, 0xFF padding, 0x00, DigestInfo,
 * digest). Nothing is parsed out of the block, so no padding or DigestInfo variant can slip through; the verdicts are
 * those of crypto.verify (tests check both agree), which also compares against that encoding. The reason for not
 * calling crypto.verify: it sets up a digest context and a padding check on every call, which made up about a tenth of
 * an ec2 login's signature check.
 */
export class RsaPublicKey {
  /** The modulus length in octets: every signature and every encoded block is exactly this long. */
  private readonly length: number;
  private readonly decryption: { key: KeyObject; padding: number };
  /** Per hash, the encoded block up to the digest; undefined when the key is too short for that hash. */
  private readonly prefixes: Partial<Record<RsaHash, Uint8Array>> = {};

  constructor(key: KeyObject) {
    if (key.asymmetricKeyType !== 'rsa') throw new TypeError('an RSA public key is needed');
    // Node reports the modulus length of every RSA key; the type leaves it optional for the other kinds.
    this.length = Math.ceil(key.asymmetricKeyDetails!.modulusLength! / 8);
    this.decryption = { key, padding: constants.RSA_NO_PADDING };
    for (const hash of ['sha1', 'sha256'] as const) {
      const info = DIGEST_INFO_PREFIXES[hash];
      const padding = this.length - info.length - DIGEST_LENGTHS[hash] - 3;
      if (padding < MIN_PADDING) continue;
      const prefix = new Uint8Array(this.length - DIGEST_LENGTHS[hash]).fill(0xff);
      prefix[0] = 0x00;
      prefix[1] = 0x01;
      prefix[2 + padding] = 0x00;
      prefix.set(info, 3 + padding);
      this.prefixes[hash] = prefix;
    }
  }

  /** Whether `signature` is this key's PKCS#1 v1.5 signature of `data` with `hash`. */
  verifies(hash: RsaHash, data: Uint8Array, signature: Uint8Array): boolean {
    const prefix = this.prefixes[hash];
    if (!prefix || signature.length !== this.length) return false;
    let block: Buffer;
    try {
      // OpenSSL refuses a signature not below the modulus (RFC 8017 §5.2.2 step 1).
      block = publicDecrypt(this.decryption, signature);
    } catch {
      return false;
    }
    if (block.length !== this.length) return false;
    // Both comparisons always run: the time does not tell which part differed.
    const samePrefix = timingSafeEqual(block.subarray(0, prefix.length), prefix);
    const sameDigest = timingSafeEqual(block.subarray(prefix.length), binaryDigest(hash, data));
    return samePrefix && sameDigest;
  }
}
