// RsaPublicKey at its limits: keys whose modulus leaves exactly the 8 padding octets RFC 8017 requires (and one
// fewer), signatures one octet short of the modulus, and keys it must not take. Node's key generation starts at 512
// bits, so the small keys are built here from primes found with BigInt arithmetic, deterministically.
import {
  constants,
  createHash,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  generateKeyPairSync,
  privateEncrypt,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RsaPublicKey } from '../../../src/auth/pkcs7/rsa-signature.js';

const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus)
    if (e & 1n) result = (result * b) % modulus;
  return result;
}

/** Miller-Rabin with the first twelve primes as bases: exact below 3.3e24, and a vanishing error rate above. */
function isPrime(n: bigint): boolean {
  const bases = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n];
  if (bases.includes(n)) return true;
  if (bases.some((p) => n % p === 0n)) return false;
  let d = n - 1n;
  let s = 0;
  for (; (d & 1n) === 0n; s++) d >>= 1n;
  return bases.every((a) => {
    let x = modPow(a, d, n);
    for (let i = 0; i < s && x !== 1n && x !== n - 1n; i++) x = (x * x) % n;
    return x === 1n || x === n - 1n;
  });
}

/** The first prime from a start of `bits` bits with its two top bits set, taken from the SHA-256 chain of `seed`. */
function prime(bits: number, seed: string): bigint {
  let hex = '';
  for (let block = seed; hex.length * 4 < bits;) hex += block = createHash('sha256').update(block).digest('hex');
  let candidate = (BigInt(`0x${hex}`) >> BigInt(hex.length * 4 - bits)) | (3n << BigInt(bits - 2)) | 1n;
  while (!isPrime(candidate)) candidate += 2n;
  return candidate;
}

function inverse(a: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [a % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

/** An RSA key pair whose modulus is exactly `bits` bits long (two primes of half as many bits, top bits set). */
function smallKey(bits: number): { publicKey: KeyObject; privateKey: KeyObject } {
  const e = 65537n;
  const [p, q] = [prime(bits / 2, `p${bits}`), prime(bits / 2, `q${bits}`)];
  const d = inverse(e, (p - 1n) * (q - 1n));
  const b64 = (value: bigint) =>
    Buffer.from(value.toString(16).padStart(Math.ceil(value.toString(16).length / 2) * 2, '0'), 'hex').toString(
      'base64url',
    );
  const jwk = {
    kty: 'RSA',
    n: b64(p * q),
    e: b64(e),
    d: b64(d),
    p: b64(p),
    q: b64(q),
    dp: b64(d % (p - 1n)),
    dq: b64(d % (q - 1n)),
    qi: b64(inverse(q, p)),
  };
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
  return { publicKey: createPublicKey(privateKey), privateKey };
}

/** A "signature" whose block is 0x00 0x01, `padding` octets 0xff, 0x00, the SHA-256 DigestInfo and the digest. */
function signatureWithPadding(privateKey: KeyObject, data: Buffer, padding: number): Buffer {
  const block = Buffer.concat([
    Buffer.from([0, 1]),
    Buffer.alloc(padding, 0xff),
    Buffer.from([0]),
    SHA256_DIGEST_INFO,
    createHash('sha256').update(data).digest(),
  ]);
  return privateEncrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, block);
}

function cryptoVerify(publicKey: KeyObject, data: Buffer, signature: Buffer): boolean {
  try {
    return verify('sha256', data, publicKey, signature);
  } catch {
    return false;
  }
}

describe('RsaPublicKey at the padding limit', () => {
  const data = Buffer.from('{"instanceId":"i-0123456789abcdef0"}');

  // 496 bits is 62 octets: 0x00 0x01, 8 octets of padding, 0x00, the 19-octet DigestInfo and the 32-octet digest.
  it.each([
    [496, 8, true],
    [488, 7, false],
  ])(
    'a %i-bit key leaves %i padding octets to a SHA-256 signature: accepted %s, as crypto.verify decides',
    (bits, padding, accepted) => {
      const { publicKey, privateKey } = smallKey(bits);
      expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(bits);
      const signature = signatureWithPadding(privateKey, data, padding);
      expect(new RsaPublicKey(publicKey).verifies('sha256', data, signature)).toBe(accepted);
      expect(cryptoVerify(publicKey, data, signature)).toBe(accepted);
    },
  );

  it('a key too short for SHA-256 still checks SHA-1 signatures, whose encoding is shorter', () => {
    const { publicKey, privateKey } = smallKey(488);
    expect(new RsaPublicKey(publicKey).verifies('sha1', data, sign('sha1', data, privateKey))).toBe(true);
  });
});

describe('RsaPublicKey and signature lengths', () => {
  it('refuses a genuine signature with its leading zero octet left off, as crypto.verify does', () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const key = new RsaPublicKey(publicKey);
    // About one signature in 200 starts with a zero octet: the same number, one octet shorter, when it is left off.
    let found: { data: Buffer; signature: Buffer } | undefined;
    for (let counter = 0; !found && counter < 20_000; counter++) {
      const data = Buffer.from(`document ${counter}`);
      const signature = sign('sha256', data, privateKey);
      if (signature[0] === 0) found = { data, signature };
    }
    expect(found).toBeDefined();
    const { data, signature } = found!;
    expect(key.verifies('sha256', data, signature)).toBe(true);
    const short = signature.subarray(1);
    expect(key.verifies('sha256', data, short)).toBe(false);
    expect(cryptoVerify(publicKey, data, short)).toBe(false);
  });
});

describe('RsaPublicKey keys', () => {
  it.each([
    ['an EC key', generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey],
    [
      'a DSA key, which has a modulus length too',
      generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 }).publicKey,
    ],
    ['an RSA-PSS key', generateKeyPairSync('rsa-pss', { modulusLength: 1024 }).publicKey],
    ['a secret key, which has no key details', createSecretKey(Buffer.alloc(32, 7))],
  ])('refuses %s with a TypeError that says so', (_name, key) => {
    expect(() => new RsaPublicKey(key)).toThrow(new TypeError('an RSA public key is needed'));
  });
});
