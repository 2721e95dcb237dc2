// Project Wycheproof's RSASSA-PKCS1-v1_5 SHA-256 vectors (tests/fixtures/wycheproof/README.md) through RsaPublicKey:
// every verdict must equal Wycheproof's. The one `acceptable` case, a DigestInfo without its NULL parameters
// (flag MissingNull, which RFC 8017 lets a verifier take or refuse), is refused: the check compares the whole block
// with the one encoding a signature has when made as RFC 8017 says, and a signer of AWS documents never leaves it out.
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RsaPublicKey } from '../../../src/auth/pkcs7/rsa-signature.js';

interface Vector {
  tcId: number;
  comment: string;
  flags: string[];
  msg: string;
  sig: string;
  result: 'valid' | 'invalid' | 'acceptable';
}

interface VectorFile {
  algorithm: string;
  numberOfTests: number;
  testGroups: { keySize: number; sha: string; type: string; publicKeyDer: string; tests: Vector[] }[];
}

const FILES = [2048, 3072, 4096].map((bits) => `rsa_signature_${bits}_sha256_test.json`);

function load(file: string): VectorFile {
  return JSON.parse(readFileSync(`tests/fixtures/wycheproof/${file}`, 'utf8')) as VectorFile;
}

/** What we decide for each of Wycheproof's verdicts. */
const EXPECTED: Record<Vector['result'], boolean> = { valid: true, invalid: false, acceptable: false };

describe.each(FILES)('Wycheproof %s', (file) => {
  const vectors = load(file);

  it('holds RSASSA-PKCS1-v1_5 SHA-256 vectors, all of them read', () => {
    expect(vectors.algorithm).toBe('RSASSA-PKCS1-v1_5');
    const groups = vectors.testGroups;
    expect(groups.every((group) => group.type === 'RsassaPkcs1Verify' && group.sha === 'SHA-256')).toBe(true);
    expect(groups.reduce((count, group) => count + group.tests.length, 0)).toBe(vectors.numberOfTests);
  });

  it("every verdict is Wycheproof's (acceptable: refused), and crypto.verify agrees", () => {
    const verdicts = { valid: 0, invalid: 0, acceptable: 0 };
    for (const group of vectors.testGroups) {
      const publicKey = createPublicKey({ key: Buffer.from(group.publicKeyDer, 'hex'), format: 'der', type: 'spki' });
      const key = new RsaPublicKey(publicKey);
      for (const vector of group.tests) {
        const message = Buffer.from(vector.msg, 'hex');
        const signature = Buffer.from(vector.sig, 'hex');
        const what = `tcId ${vector.tcId} (${vector.comment || vector.flags.join(', ')})`;
        const ours = key.verifies('sha256', message, signature);
        expect(ours, what).toBe(EXPECTED[vector.result]);
        let theirs: boolean;
        try {
          theirs = verify('sha256', message, publicKey, signature);
        } catch {
          theirs = false;
        }
        expect(ours, `${what}: crypto.verify`).toBe(theirs);
        verdicts[vector.result]++;
      }
    }
    // Each file has valid and invalid vectors, and its one acceptable case is the missing NULL.
    expect(verdicts.valid).toBeGreaterThan(0);
    expect(verdicts.invalid).toBeGreaterThan(200);
    expect(verdicts.acceptable).toBe(1);
  });

  it('the acceptable vector is the DigestInfo without NULL parameters, and it is refused', () => {
    const acceptable = vectors.testGroups
      .flatMap((group) => group.tests.map((vector) => ({ group, vector })))
      .filter(({ vector }) => vector.result === 'acceptable');
    expect(acceptable.map(({ vector }) => vector.flags)).toEqual([['MissingNull']]);
    const [{ group, vector }] = acceptable as [(typeof acceptable)[number]];
    const key = new RsaPublicKey(
      createPublicKey({ key: Buffer.from(group.publicKeyDer, 'hex'), format: 'der', type: 'spki' }),
    );
    expect(key.verifies('sha256', Buffer.from(vector.msg, 'hex'), Buffer.from(vector.sig, 'hex'))).toBe(false);
  });
});
