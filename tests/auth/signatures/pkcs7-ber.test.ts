import { beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationRefused, isStrongroomError } from '../../../src/lib/errors.js';
import { verifyPkcs7 } from '../../../src/auth/pkcs7/pkcs7.js';
import { BerCursor } from '../../../src/auth/pkcs7/ber.js';
import { buildCms, createSigner, type TestSigner } from '../../support/synthetic-cms.js';
import { failure } from '../../support/failure.js';

// Signed attributes arrive as BER but are signed as DER (RFC 5652 §5.4): a document whose framing is not DER must
// verify through the re-encoding path, and tampering with it must still fail. Genuine documents only take the path
// that verifies the received bytes in place.

type Framing = 'indefinite' | 'long';

/** The DER elements re-framed as BER: every constructed one with an indefinite length, or every length in long form. */
function reframe(der: Uint8Array, framing: Framing): Buffer {
  const elements: Buffer[] = [];
  for (let position = 0; position < der.length;) {
    const tag = der[position] as number;
    let at = position + 1;
    let length = der[at++] as number;
    if (length & 0x80) {
      const count = length & 0x7f;
      length = 0;
      for (let index = 0; index < count; index++) length = length * 256 + (der[at++] as number);
    }
    const content = Buffer.from(der.subarray(at, at + length));
    const inner = tag & 0x20 ? reframe(content, framing) : content;
    if (framing === 'indefinite' && tag & 0x20) elements.push(Buffer.from([tag, 0x80]), inner, Buffer.from([0, 0]));
    else if (framing === 'indefinite') elements.push(Buffer.from(der.subarray(position, at + length)));
    else
      elements.push(
        Buffer.from([tag, 0x83, inner.length >> 16, (inner.length >> 8) & 0xff, inner.length & 0xff]),
        inner,
      );
    position = at + length;
  }
  return Buffer.concat(elements);
}

/** Where the signed attributes [0] lie in a document: they start with the contentType attribute. */
function signedAttributesRegion(document: Buffer): [number, number] {
  const contentType = document.indexOf(Buffer.from('2a864886f70d010903', 'hex'));
  const start = document.lastIndexOf(0xa0, contentType);
  const cursor = new BerCursor(document);
  cursor.position = start;
  const end = cursor.skip();
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(contentType);
  return [start, end];
}

describe('signed attributes not framed as DER', () => {
  const content = Buffer.from('{"instanceId":"i-0123456789abcdef0","accountId":"123456789012","region":"eu-west-1"}');
  const signingTime = new Date('2024-06-01T12:00:00Z');
  let signer: TestSigner;
  let genuine: Buffer;

  beforeAll(async () => {
    signer = await createSigner({
      name: 'synthetic',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2030-01-01T00:00:00Z'),
      serialNumber: '0a1b2c3d',
    });
    genuine = Buffer.from(buildCms({ content, signer, signingTime, algorithmProtection: true }), 'base64');
  });

  it.each<Framing>(['indefinite', 'long'])(
    'verify with %s lengths throughout, signed attributes and issuer included',
    (framing) => {
      const document = reframe(genuine, framing);
      expect(document.equals(genuine)).toBe(false);
      const result = verifyPkcs7(document.toString('base64'), [signer.trusted]);
      expect(result.content.equals(content)).toBe(true);
      expect(result.signer.name).toBe('synthetic');
      expect(result.signingTime).toEqual(signingTime);
    },
  );

  it.each<Framing>(['indefinite', 'long'])(
    'fail with %s lengths when any byte of the signed attributes changes',
    (framing) => {
      const document = reframe(genuine, framing);
      const [start, end] = signedAttributesRegion(document);
      expect(end - start).toBeGreaterThan(100);
      for (let index = start; index < end; index++) {
        const tampered = Buffer.from(document);
        tampered[index] = (tampered[index] as number) ^ 0x01;
        const error = failure(() => verifyPkcs7(tampered.toString('base64'), [signer.trusted]));
        expect(isStrongroomError(error), `byte ${index - start} of the signed attributes`).toBe(true);
      }
    },
  );

  it('fail when the signing time or the content changes', () => {
    const document = reframe(genuine, 'indefinite');
    const time = document.indexOf(Buffer.from('240601120000Z'));
    const inContent = document.indexOf(content) + 10;
    for (const index of [time + 3, inContent]) {
      const tampered = Buffer.from(document);
      tampered[index] = (tampered[index] as number) ^ 0x01;
      expect(failure(() => verifyPkcs7(tampered.toString('base64'), [signer.trusted]))).toBeInstanceOf(
        AuthenticationRefused,
      );
    }
  });
});
