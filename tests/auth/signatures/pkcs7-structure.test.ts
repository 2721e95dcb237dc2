// The PKCS#7 reader reads every part of a document and takes nothing the grammar of RFC 5652 does not allow, even in
// parts the signature does not cover: a second content beside the signed one, elements after the last field of a
// structure, or algorithm parameters other than NULL. The differential fuzz (pkcs7-differential.test.ts) found the first
// of these; the independent verifier it uses accepts all of them, so they are pinned here one by one.
import { describe, expect, it } from 'vitest';
import { verifyPkcs7 } from '../../../src/auth/pkcs7/pkcs7.js';
import { InvalidRequest } from '../../../src/lib/errors.js';
import { allAwsCertificates, sampleFile } from '../../support/aws-fixtures.js';
import { failure } from '../../support/failure.js';

const TRUSTED = allAwsCertificates();
// BER with indefinite lengths throughout: ContentInfo { signedData, [0] { SignedData { version, digestAlgorithms,
// EncapsulatedContentInfo { data, [0] { OCTET STRING { OCTET STRING <document> } } }, SignerInfos } } }.
const GENUINE = Buffer.from(sampleFile('teleport-us-west-2-2021', 'rsa2048'), 'base64');
const DOCUMENT = Buffer.from(sampleFile('teleport-us-west-2-2021', 'document'));
const NULL = Buffer.from('0500', 'hex');

/** Where the end-of-contents octets after the document close, in order: the OCTET STRING, [0], EncapsulatedContentInfo. */
const AFTER_DOCUMENT = GENUINE.indexOf(DOCUMENT) + DOCUMENT.length;
/** The end-of-contents octets at the very end close SignerInfos' parent SignedData, then [0], then ContentInfo. */
const END = GENUINE.length;

function inserted(at: number, bytes: Buffer): Buffer {
  return Buffer.concat([GENUINE.subarray(0, at), bytes, GENUINE.subarray(at)]);
}

const verify = (der: Buffer) => verifyPkcs7(der.toString('base64'), TRUSTED);

describe('the PKCS#7 reader refuses, as malformed (400)', () => {
  it('accepts the genuine document these are made from', () => {
    expect(GENUINE.subarray(AFTER_DOCUMENT, AFTER_DOCUMENT + 6).equals(Buffer.alloc(6))).toBe(true);
    expect(GENUINE.subarray(END - 6).equals(Buffer.alloc(6))).toBe(true);
    expect(verify(GENUINE).content.equals(DOCUMENT)).toBe(true);
  });

  // digestAlgorithms, which the signature does not cover: SET { SEQUENCE { sha256, NULL } }, definite lengths.
  const digestAlgorithms = GENUINE.indexOf(Buffer.from('310f300d06096086480165030402010500', 'hex'));
  const withDigestAlgorithms = (hex: string) =>
    Buffer.concat([
      GENUINE.subarray(0, digestAlgorithms),
      Buffer.from(hex, 'hex'),
      GENUINE.subarray(digestAlgorithms + 17),
    ]);
  it.each([
    [
      'a second content after the signed one',
      inserted(AFTER_DOCUMENT + 4, Buffer.from('a080040541414141410000', 'hex')),
      'unexpected element in EncapsulatedContentInfo',
    ],
    ['an element after the content in its [0]', inserted(AFTER_DOCUMENT + 2, NULL), 'unexpected element in eContent'],
    [
      'an element after the content type and content',
      inserted(AFTER_DOCUMENT + 4, NULL),
      'unexpected element in EncapsulatedContentInfo',
    ],
    [
      'an element after the SignedData in its [0]',
      inserted(END - 4, NULL),
      'unexpected element in ContentInfo content',
    ],
    ['an element after the content of the ContentInfo', inserted(END - 2, NULL), 'unexpected element in ContentInfo'],
    [
      'algorithm parameters other than NULL',
      withDigestAlgorithms('310f300d06096086480165030402011800'),
      'digestAlgorithms parameters: unexpected tag 0x18',
    ],
    [
      'algorithm parameters that are a NULL with content',
      withDigestAlgorithms('3110300e0609608648016503040201050100'),
      'digestAlgorithms parameters: NULL with content',
    ],
    [
      'an element after the algorithm parameters',
      withDigestAlgorithms('3111300f060960864801650304020105000500'),
      'unexpected element in digestAlgorithms',
    ],
  ])('%s', (_name, der, detail) => {
    const error = failure(() => verify(der));
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.message).toMatch(/^failed to parse the BER encoded PKCS#7 signature: /);
    expect(error.message).toContain(detail);
  });
});
