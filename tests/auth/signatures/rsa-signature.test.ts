// RsaPublicKey checks PKCS#1 v1.5 signatures by comparing the whole recovered block with the one valid encoding. These
// tests hold it to crypto.verify's verdicts: on genuine signatures, on tampered ones, and on blocks crafted with the
// private key to be almost right (each the shape of a known forgery or padding mistake).
import {
  constants,
  createHash,
  createPublicKey,
  generateKeyPairSync,
  privateEncrypt,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RsaPublicKey, type RsaHash } from '../../../src/auth/pkcs7/rsa-signature.js';

const DIGEST_INFO: Record<RsaHash, string> = {
  sha1: '3021300906052b0e03021a05000414',
  sha256: '3031300d060960864801650304020105000420',
};
// The same DigestInfo with the NULL parameters left out: OpenSSL's verify refuses it too.
const WITHOUT_NULL: Record<RsaHash, string> = {
  sha1: '301f300706052b0e03021a0414',
  sha256: '302f300b0609608648016503040201' + '0420',
};

const keys = [1024, 2048, 3072].map((modulusLength) => generateKeyPairSync('rsa', { modulusLength }));

/** The RSA operation of the private key on a block of the modulus length: a "signature" whose block is exactly `block`. */
function signatureOf(privateKey: KeyObject, block: Buffer): Buffer {
  return privateEncrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, block);
}

/** 0x00 0x01 PS 0x00 T, where T is the hex DigestInfo prefix then the digest, the block `length` octets long. */
function block(length: number, info: string, digest: Buffer, padding = 0xff): Buffer {
  const tail = Buffer.concat([Buffer.from(info, 'hex'), digest]);
  return Buffer.concat([
    Buffer.from([0x00, 0x01]),
    Buffer.alloc(length - tail.length - 3, padding),
    Buffer.from([0x00]),
    tail,
  ]);
}

function agree(publicKey: KeyObject, hash: RsaHash, data: Buffer, signature: Buffer): boolean {
  const ours = new RsaPublicKey(publicKey).verifies(hash, data, signature);
  let theirs: boolean;
  try {
    theirs = verify(hash, data, publicKey, signature);
  } catch {
    theirs = false;
  }
  expect(ours).toBe(theirs);
  return ours;
}

describe('RsaPublicKey', () => {
  it('accepts every genuine signature crypto.verify accepts, for each key size and hash', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.constantFrom<RsaHash>('sha1', 'sha256'),
        fc.uint8Array({ maxLength: 600 }),
        ({ publicKey, privateKey }, hash, bytes) => {
          const data = Buffer.from(bytes);
          expect(agree(publicKey, hash, data, sign(hash, data, privateKey))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a signature with any one bit flipped, or checked against other data or the other hash', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.nat(),
        ({ publicKey, privateKey }, bytes, bit) => {
          const data = Buffer.from(bytes);
          const signature = sign('sha256', data, privateKey);
          const flipped = Buffer.from(signature);
          flipped[(bit >>> 3) % flipped.length]! ^= 1 << (bit & 7);
          expect(agree(publicKey, 'sha256', data, flipped)).toBe(false);
          const other = Buffer.from(data);
          other[0]! ^= 1;
          expect(agree(publicKey, 'sha256', other, signature)).toBe(false);
          expect(agree(publicKey, 'sha1', data, signature)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('accepts the valid encoding made by hand, and refuses every near miss of it', () => {
    const { publicKey, privateKey } = keys[1]!;
    const data = Buffer.from('{"instanceId":"i-0123456789abcdef0"}');
    const digest = createHash('sha256').update(data).digest();
    const length = 256;
    const valid = block(length, DIGEST_INFO.sha256, digest);
    expect(agree(publicKey, 'sha256', data, signatureOf(privateKey, valid))).toBe(true);

    const nearMisses: Record<string, Buffer> = {
      'a padding octet is not 0xff': (() => {
        const bad = Buffer.from(valid);
        bad[100] = 0xfe;
        return bad;
      })(),
      'block type 2 (encryption padding)': Buffer.concat([Buffer.from([0x00, 0x02]), valid.subarray(2)]),
      'no zero octet after the padding': (() => {
        const bad = Buffer.from(valid);
        bad[length - 32 - 19 - 1] = 0xff;
        return bad;
      })(),
      'DigestInfo without its NULL parameters': block(length, WITHOUT_NULL.sha256, digest),
      'the SHA-1 DigestInfo around a SHA-256 digest': block(length, DIGEST_INFO.sha1, digest),
      // The shape of the low-exponent forgery: short padding, the DigestInfo, then garbage to the end of the block.
      'short padding with garbage after the digest': Buffer.concat([
        Buffer.from([0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]),
        Buffer.from(DIGEST_INFO.sha256, 'hex'),
        digest,
        Buffer.alloc(length - 11 - 19 - 32, 0x42),
      ]),
      'a leading octet other than zero': Buffer.concat([Buffer.from([0x01]), valid.subarray(1)]),
    };
    for (const [why, bad] of Object.entries(nearMisses)) {
      expect(bad.length, why).toBe(length);
      expect(agree(publicKey, 'sha256', data, signatureOf(privateKey, bad)), why).toBe(false);
    }
  });

  it('refuses signatures of the wrong length or not below the modulus, without throwing', () => {
    const { publicKey, privateKey } = keys[1]!;
    const data = Buffer.from('document');
    const signature = sign('sha256', data, privateKey);
    const key = new RsaPublicKey(publicKey);
    expect(key.verifies('sha256', data, signature.subarray(1))).toBe(false);
    expect(key.verifies('sha256', data, Buffer.concat([Buffer.from([0]), signature]))).toBe(false);
    expect(key.verifies('sha256', data, Buffer.alloc(256, 0xff))).toBe(false);
    const modulus = Buffer.from(publicKey.export({ format: 'jwk' }).n!, 'base64url');
    expect(key.verifies('sha256', data, modulus)).toBe(false);
    expect(agree(publicKey, 'sha256', data, Buffer.alloc(256))).toBe(false);
  });

  it('refuses every signature for a hash whose encoding does not fit the key, as crypto.verify does', () => {
    // A 480-bit modulus (60 octets): a SHA-256 encoding needs 62 (its DigestInfo, the digest and 11 octets of framing).
    const tiny = createPublicKey({
      key: { kty: 'RSA', n: Buffer.alloc(60, 0xc5).toString('base64url'), e: 'AQAB' },
      format: 'jwk',
    });
    const data = Buffer.from('x');
    for (const signature of [Buffer.alloc(60, 1), Buffer.alloc(60, 0x42)])
      expect(agree(tiny, 'sha256', data, signature)).toBe(false);
  });

  it('takes only RSA keys', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => new RsaPublicKey(publicKey)).toThrow(TypeError);
  });
});
