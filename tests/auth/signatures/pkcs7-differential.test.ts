// A seeded, bounded differential fuzz of the PKCS#7 reader: thousands of mutations of the genuine AWS documents in
// fixtures/ go through verifyPkcs7 and, whenever it accepts one, through an independent verifier (tests/auth/oracles:
// @peculiar/asn1-cms and node:crypto). verifyPkcs7 must never accept a document whose content differs from the genuine
// one, nor one the oracle does not find validly signed; everything else it refuses with a 400 or a 403.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { verifyPkcs7 } from '../../../src/auth/pkcs7/pkcs7.js';
import { isStrongroomError } from '../../../src/lib/errors.js';
import { allAwsCertificates, sampleFile, type SampleName } from '../../support/aws-fixtures.js';
import { oracleVerify } from '../oracles/cms-oracle.js';

const TRUSTED = allAwsCertificates();
const GENUINE: { name: string; der: Buffer; content: Buffer }[] = (
  [
    ['teleport-us-west-2-2021', 'rsa2048'],
    ['iid-verify-us-west-2-2018', 'rsa2048'],
    ['iid-verify-us-west-2-2018', 'pkcs7'],
    ['pkcs7-go-us-east-1-2016', 'pkcs7'],
  ] as [SampleName, string][]
).map(([sample, file]) => ({
  name: `${sample}/${file}`,
  der: Buffer.from(sampleFile(sample, file), 'base64'),
  content: Buffer.from(sampleFile(sample, 'document')),
}));

interface Tally {
  accepted: number;
  refused: number;
}

/** Runs one candidate through verifyPkcs7 (SHA-1 allowed, for the DSA documents), holds it to the rules above, counts. */
function judge(candidate: Buffer, genuine: (typeof GENUINE)[number], tally: Tally): void {
  let content: Buffer;
  try {
    content = verifyPkcs7(candidate.toString('base64'), TRUSTED, { allowSha1: true }).content;
  } catch (error) {
    if (!isStrongroomError(error) || (error.status !== 400 && error.status !== 403)) throw error;
    tally.refused++;
    return;
  }
  tally.accepted++;
  const hex = candidate.toString('hex');
  expect(content.equals(genuine.content), `accepted other content from ${genuine.name}: ${hex}`).toBe(true);
  const verdict = oracleVerify(candidate, TRUSTED);
  expect(
    verdict.valid ? 'valid' : verdict.reason,
    `accepted what the oracle refuses, from ${genuine.name}: ${hex}`,
  ).toBe('valid');
  if (verdict.valid) expect(verdict.content.equals(content)).toBe(true);
}

type Edit =
  | { kind: 'set'; at: number; value: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; count: number }
  | { kind: 'copy'; from: number; length: number; to: number }
  | { kind: 'truncate'; at: number };

// Positions near the start (where the structure's headers are) are drawn as often as any others.
const position = fc.oneof(fc.nat(160), fc.nat());
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    at: position,
    value: fc.oneof(fc.constantFrom(0x00, 0x01, 0x04, 0x24, 0x30, 0x31, 0x80, 0x81, 0x82, 0xa0, 0xff), fc.nat(255)),
  }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: position,
    bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: position, count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant('copy' as const),
    from: position,
    length: fc.integer({ min: 1, max: 80 }),
    to: position,
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function applied(bytes: Buffer, edits: readonly Edit[]): Buffer {
  let result = Buffer.from(bytes);
  for (const change of edits) {
    const at = (offset: number) => offset % (result.length + 1);
    if (change.kind === 'set') {
      if (result.length > 0) result[at(change.at) % result.length] = change.value;
    } else if (change.kind === 'insert') {
      result = Buffer.concat([result.subarray(0, at(change.at)), change.bytes, result.subarray(at(change.at))]);
    } else if (change.kind === 'delete') {
      result = Buffer.concat([result.subarray(0, at(change.at)), result.subarray(at(change.at) + change.count)]);
    } else if (change.kind === 'copy') {
      const slice = result.subarray(at(change.from), at(change.from) + change.length);
      result = Buffer.concat([result.subarray(0, at(change.to)), slice, result.subarray(at(change.to))]);
    } else {
      result = result.subarray(0, at(change.at));
    }
  }
  return result;
}

describe('verifyPkcs7 against an independent CMS verifier', () => {
  it('accepts each genuine document, as the oracle does', () => {
    const tally = { accepted: 0, refused: 0 };
    for (const genuine of GENUINE) judge(genuine.der, genuine, tally);
    expect(tally).toEqual({ accepted: GENUINE.length, refused: 0 });
  });

  it('every octet of every genuine document with one bit flipped: refused, or accepted with the same content, as the oracle accepts it', () => {
    const tally = { accepted: 0, refused: 0 };
    for (const genuine of GENUINE) {
      for (let index = 0; index < genuine.der.length; index++) {
        const candidate = Buffer.from(genuine.der);
        candidate[index] = (candidate[index] as number) ^ (1 << (index % 8));
        judge(candidate, genuine, tally);
      }
    }
    // Flips in the signed content, the signed attributes and the signatures are refused; a few outside them (a
    // version number, an unsigned algorithm parameter) leave a document that is still validly signed.
    expect(tally.refused).toBeGreaterThan(tally.accepted);
    expect(tally.accepted).toBeGreaterThan(0);
  });

  it('a NULL element inserted at any offset of a genuine document is refused: no structure has room for one more', () => {
    const tally = { accepted: 0, refused: 0 };
    for (const genuine of GENUINE) {
      for (let index = 0; index <= genuine.der.length; index++) {
        judge(
          Buffer.concat([genuine.der.subarray(0, index), Buffer.from([0x05, 0x00]), genuine.der.subarray(index)]),
          genuine,
          tally,
        );
      }
    }
    expect(tally).toEqual({
      accepted: 0,
      refused: GENUINE.reduce((count, genuine) => count + genuine.der.length + 1, 0),
    });
  });

  it('seeded random edits (set, insert, delete, copy, truncate): refused, or accepted with the same content, as the oracle accepts it', () => {
    const tally = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(fc.nat(GENUINE.length - 1), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, edits) => {
        const genuine = GENUINE[which]!;
        judge(applied(genuine.der, edits), genuine, tally);
      }),
      { seed: 0x5eed27, numRuns: 4000 },
    );
    expect(tally.accepted + tally.refused).toBe(4000);
    expect(tally.accepted).toBeGreaterThan(0);
  });
});
