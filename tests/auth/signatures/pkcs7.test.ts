import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AsnConvert, AsnParser } from '@peculiar/asn1-schema';
import { Certificate, SubjectPublicKeyInfo, Validity, type TBSCertificate } from '@peculiar/asn1-x509';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';
import { AuthenticationRefused, InvalidRequest, isStrongroomError } from '../../../src/lib/errors.js';
import { SHA1_DISABLED_MESSAGE, verifyPkcs7, type VerifiedContent } from '../../../src/auth/pkcs7/pkcs7.js';
import { parseTrustedCertificate } from '../../../src/auth/pkcs7/parsed-certificate.js';
import { BerCursor, BerError } from '../../../src/auth/pkcs7/ber.js';
import type { TrustedCertificate } from '../../../src/auth/pkcs7/trusted-certificate.js';
import {
  allAwsCertificates,
  awsCertificates,
  sampleCertificate,
  sampleFile,
  type SampleName,
} from '../../support/aws-fixtures.js';
import { buildCms, createSigner, OID, type TestSigner } from '../../support/synthetic-cms.js';
import { failure } from '../../support/failure.js';

const ALL = allAwsCertificates();
const SHA1 = { allowSha1: true };

interface Sample {
  sample: SampleName;
  file: 'pkcs7' | 'rsa2048';
  certificate: string;
  algorithm: VerifiedContent['algorithm'];
  signer: string;
  signingTime: string;
}

const SAMPLES: Sample[] = [
  {
    sample: 'iid-verify-us-west-2-2018',
    file: 'rsa2048',
    certificate: 'cert-rsa2048-us-west-2.pem',
    algorithm: 'RSA-SHA256',
    signer: 'rsa2048/us-west-2',
    signingTime: '2018-05-09T12:31:03.000Z',
  },
  {
    sample: 'teleport-us-west-2-2021',
    file: 'rsa2048',
    certificate: 'cert-rsa2048-us-west-2.pem',
    algorithm: 'RSA-SHA256',
    signer: 'rsa2048/us-west-2',
    signingTime: '2021-09-03T21:25:47.000Z',
  },
  {
    sample: 'iid-verify-us-west-2-2018',
    file: 'pkcs7',
    certificate: 'cert-dsa-generic.pem',
    algorithm: 'DSA-SHA1',
    signer: 'dsa/',
    signingTime: '2018-05-09T12:31:03.000Z',
  },
  {
    sample: 'pkcs7-go-us-east-1-2016',
    file: 'pkcs7',
    certificate: 'cert-dsa-generic.pem',
    algorithm: 'DSA-SHA1',
    signer: 'dsa/',
    signingTime: '2016-04-08T03:01:44.000Z',
  },
];

const blob = (s: Sample) => sampleFile(s.sample, s.file);
const der = (s: Sample) => Buffer.from(blob(s), 'base64');
const options = (s: Sample) => (s.algorithm === 'DSA-SHA1' ? SHA1 : {});

function expectTyped(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!isStrongroomError(error)) throw error;
    expect([400, 403]).toContain(error.status);
  }
}

/** A copy of a certificate with its TBS part changed; its own signature no longer matches, which nothing checks. */
function altered(pem: string, change: (tbs: TBSCertificate) => void): TrustedCertificate {
  const certificate = AsnParser.parse(new X509Certificate(pem).raw, Certificate);
  change(certificate.tbsCertificate);
  const body = Buffer.from(AsnConvert.serialize(certificate))
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return {
    name: 'altered',
    type: 'pkcs7',
    pem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    builtin: false,
  };
}

/** Offsets of the content, the signature and the signed attributes inside a sample's DER. */
function regions(
  bytes: Buffer,
  document: Buffer,
): Record<'content' | 'signature' | 'signedAttributes', [number, number]> {
  const signedData = AsnParser.parse(AsnParser.parse(bytes, ContentInfo).content, SignedData);
  const signer = signedData.signerInfos[0]!;
  const signature = Buffer.from(signer.signature.buffer);
  const attributes = Buffer.concat(signer.signedAttrs!.map((item) => Buffer.from(AsnConvert.serialize(item))));
  const at = (needle: Buffer): [number, number] => {
    const start = bytes.indexOf(needle);
    expect(start).toBeGreaterThan(0);
    return [start, start + needle.length];
  };
  return { content: at(document), signature: at(signature), signedAttributes: at(attributes) };
}

describe('genuine AWS documents', () => {
  it.each(SAMPLES)('$sample $file verifies against the fixture certificates', (s) => {
    const result = verifyPkcs7(blob(s), ALL, options(s));
    expect(result.content.toString('utf8')).toBe(sampleFile(s.sample, 'document'));
    expect(result.algorithm).toBe(s.algorithm);
    expect(result.signer.name.startsWith(s.signer)).toBe(true);
    expect(result.signingTime?.toISOString()).toBe(s.signingTime);
  });

  it.each(SAMPLES)('$sample $file verifies against its own certificate, in every text form', (s) => {
    const trusted = [sampleCertificate(s.sample, s.certificate)];
    const text = blob(s);
    const compact = text.replace(/\s/g, '');
    for (const form of [
      text,
      compact,
      `-----BEGIN PKCS7-----\n${text}\n-----END PKCS7-----\n`,
      `-----BEGIN CMS-----${compact}-----END CMS-----`,
    ]) {
      expect(verifyPkcs7(form, trusted, options(s)).content.toString('utf8')).toBe(sampleFile(s.sample, 'document'));
    }
  });

  it('refuses the DSA-SHA1 document by default with a 400 naming the rsa2048 document', () => {
    for (const s of SAMPLES.filter((item) => item.algorithm === 'DSA-SHA1')) {
      for (const trusted of [ALL, []]) {
        const error = failure(() => verifyPkcs7(blob(s), trusted));
        expect(error).toBeInstanceOf(InvalidRequest);
        expect(error.message).toBe(SHA1_DISABLED_MESSAGE);
        expect(error.message).toMatch(/SHA-1 signatures are disabled/);
        expect(error.message).toMatch(/rsa2048/);
      }
    }
  });

  it.each(SAMPLES)('$sample $file fails against the wrong certificates', (s) => {
    const others =
      s.algorithm === 'DSA-SHA1' ? [...awsCertificates('rsa2048'), ...awsCertificates('rsa')] : awsCertificates('dsa');
    const error = failure(() => verifyPkcs7(blob(s), others, options(s)));
    expect(error).toBeInstanceOf(AuthenticationRefused);
    expect(error.message).toMatch(/no trusted certificate matches the signer/);
  });

  it.each(SAMPLES)('$sample $file fails against a certificate with its issuer and serial but another key', (s) => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' });
    const impostor = altered(sampleFile(s.sample, s.certificate), (tbs) => {
      tbs.subjectPublicKeyInfo = AsnParser.parse(key, SubjectPublicKeyInfo);
    });
    const error = failure(() => verifyPkcs7(blob(s), [impostor], options(s)));
    expect(error).toBeInstanceOf(AuthenticationRefused);
  });

  it.each(SAMPLES)(
    '$sample $file: a signingTime outside the certificate validity is refused, expiry alone is not',
    (s) => {
      const pem = sampleFile(s.sample, s.certificate);
      const signingTime = new Date(s.signingTime).getTime();
      const expiredBefore = altered(pem, (tbs) => {
        tbs.validity = new Validity({
          notBefore: new Date(signingTime - 86_400_000),
          notAfter: new Date(signingTime - 1000),
        });
      });
      const notYetValid = altered(pem, (tbs) => {
        tbs.validity = new Validity({
          notBefore: new Date(signingTime + 1000),
          notAfter: new Date(signingTime + 86_400_000),
        });
      });
      for (const certificate of [expiredBefore, notYetValid]) {
        const error = failure(() => verifyPkcs7(blob(s), [certificate], options(s)));
        expect(error).toBeInstanceOf(AuthenticationRefused);
        expect(error.message).toMatch(/signing time .* is outside the validity/);
      }
      // Valid when signed, long expired now: still accepted.
      const expiredSince = altered(pem, (tbs) => {
        tbs.validity = new Validity({
          notBefore: new Date(signingTime - 1000),
          notAfter: new Date(signingTime + 1000),
        });
      });
      expect(verifyPkcs7(blob(s), [expiredSince], options(s)).signer.name).toBe('altered');
    },
  );

  it.each(SAMPLES)('$sample $file: changing any byte of the content, signature or signed attributes fails', (s) => {
    const bytes = der(s);
    const trusted = [sampleCertificate(s.sample, s.certificate)];
    const parts = regions(bytes, Buffer.from(sampleFile(s.sample, 'document')));
    for (const [region, [start, end]] of Object.entries(parts)) {
      for (let index = start; index < end; index++) {
        const tampered = Buffer.from(bytes);
        tampered[index] = (tampered[index] as number) ^ 0x01;
        const error = failure(() => verifyPkcs7(tampered.toString('base64'), trusted, options(s)));
        expect(isStrongroomError(error), `${region} byte ${index}`).toBe(true);
        if (region !== 'signedAttributes')
          expect(error, `${region} byte ${index}`).toBeInstanceOf(AuthenticationRefused);
      }
    }
  });

  it('skips a trusted certificate that does not decode', () => {
    const s = SAMPLES[0]!;
    const broken: TrustedCertificate = {
      name: 'broken',
      type: 'pkcs7',
      pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
      builtin: false,
    };
    expect(verifyPkcs7(blob(s), [broken, ...ALL]).signer.name).toBe('rsa2048/us-west-2');
  });

  it('decodes each trusted certificate once', () => {
    const [first] = awsCertificates('rsa2048');
    const once = parseTrustedCertificate(first!);
    const twice = parseTrustedCertificate({ ...first!, name: 'same PEM, other name' });
    expect(twice?.publicKey).toBe(once?.publicKey);
    expect(twice?.certificate.name).toBe('same PEM, other name');
  });

  it('follows a trusted list that changes between verifications (the lookup keeps a view of each list)', () => {
    const s = SAMPLES[1]!;
    const trusted = awsCertificates('rsa2048');
    const index = trusted.findIndex((certificate) => certificate.name === s.signer);
    const signer = trusted[index]!;
    const other = trusted[(index + 1) % trusted.length]!;
    expect(verifyPkcs7(blob(s), trusted).signer).toBe(signer);
    // The same list object: an element replaced, then its PEM text changed in place, then both put back.
    trusted[index] = { ...other, name: 'replaced' };
    expect(failure(() => verifyPkcs7(blob(s), trusted))).toBeInstanceOf(AuthenticationRefused);
    trusted[index] = signer;
    expect(verifyPkcs7(blob(s), trusted).signer).toBe(signer);
    const pem = signer.pem;
    signer.pem = other.pem;
    expect(failure(() => verifyPkcs7(blob(s), trusted))).toBeInstanceOf(AuthenticationRefused);
    signer.pem = pem;
    expect(verifyPkcs7(blob(s), trusted).signer).toBe(signer);
    trusted.splice(index, 1);
    expect(failure(() => verifyPkcs7(blob(s), trusted))).toBeInstanceOf(AuthenticationRefused);
    trusted.push({ ...signer, name: 'appended' });
    expect(verifyPkcs7(blob(s), trusted).signer.name).toBe('appended');
  });

  it('answers the first trusted certificate that matches the signer', () => {
    const s = SAMPLES[1]!;
    const trusted = awsCertificates('rsa2048');
    const signer = trusted.find((certificate) => certificate.name === s.signer)!;
    expect(
      verifyPkcs7(blob(s), [{ ...signer, name: 'first' }, ...trusted, { ...signer, name: 'last' }]).signer.name,
    ).toBe('first');
  });
});

describe('synthetic documents', () => {
  const content = Buffer.from('{"instanceId":"i-0123456789abcdef0","accountId":"123456789012","region":"eu-west-1"}');
  const notBefore = new Date('2020-01-01T00:00:00Z');
  const notAfter = new Date('2030-01-01T00:00:00Z');
  const inside = new Date('2024-06-01T12:00:00Z');
  let signer: TestSigner;
  let other: TestSigner;

  beforeAll(async () => {
    signer = await createSigner({ name: 'synthetic', notBefore, notAfter, serialNumber: '0a1b2c3d' });
    other = await createSigner({ name: 'synthetic', notBefore, notAfter, serialNumber: '0a1b2c3d' });
  });

  const verify = (cms: string, extra: { allowSha1?: boolean } = {}) => verifyPkcs7(cms, [signer.trusted], extra);

  it('accepts RSA-SHA256 with and without CMSAlgorithmProtection and NULL digest parameters', () => {
    for (const algorithmProtection of [false, true]) {
      for (const digestNullParameters of [false, true]) {
        for (const signatureOid of [OID.sha256WithRsa, OID.rsaEncryption]) {
          const cms = buildCms({
            content,
            signer,
            algorithmProtection,
            digestNullParameters,
            signatureOid,
            signingTime: inside,
          });
          const result = verify(cms);
          expect(result.content.equals(content)).toBe(true);
          expect(result.algorithm).toBe('RSA-SHA256');
          expect(result.signingTime).toEqual(inside);
        }
      }
    }
  });

  it('concatenates the chunks of a constructed OCTET STRING', () => {
    expect(verify(buildCms({ content, signer, chunkSizes: [1, 10, 30] })).content.equals(content)).toBe(true);
  });

  it('accepts a document without signed attributes (the signature covers the content) and has no signing time', () => {
    const result = verify(buildCms({ content, signer, withoutSignedAttributes: true }));
    expect(result.content.equals(content)).toBe(true);
    expect(result.signingTime).toBeUndefined();
    const bytes = Buffer.from(buildCms({ content, signer, withoutSignedAttributes: true }), 'base64');
    const at = bytes.indexOf(content) + 5;
    bytes[at] = (bytes[at] as number) ^ 1;
    expect(failure(() => verify(bytes.toString('base64')))).toBeInstanceOf(AuthenticationRefused);
  });

  it('refuses a signingTime outside the certificate validity', () => {
    for (const signingTime of [new Date('2019-12-31T23:59:59Z'), new Date('2030-01-01T00:00:01Z')]) {
      const error = failure(() => verify(buildCms({ content, signer, signingTime })));
      expect(error).toBeInstanceOf(AuthenticationRefused);
      expect(error.message).toMatch(/outside the validity of certificate "synthetic"/);
    }
  });

  it('reads a GeneralizedTime signing time (years from 2050)', () => {
    const error = failure(() => verify(buildCms({ content, signer, signingTime: new Date('2051-02-03T04:05:06Z') })));
    expect(error).toBeInstanceOf(AuthenticationRefused);
    expect(error.message).toMatch(/signing time 2051-02-03T04:05:06.000Z is outside the validity/);
  });

  it('refuses a signing time that names no instant as malformed (month 13 once rolled over into the next year)', () => {
    const bytes = Buffer.from(buildCms({ content, signer, signingTime: new Date('2024-06-01T12:00:00Z') }), 'base64');
    const at = bytes.indexOf('240601120000Z');
    bytes.write('241301120000Z', at, 'latin1');
    const error = failure(() => verify(bytes.toString('base64')));
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.message).toBe('failed to parse the BER encoded PKCS#7 signature: invalid signing time');
  });

  it('refuses RSA-SHA1 unless SHA-1 is allowed', () => {
    const cms = buildCms({ content, signer, digest: 'sha1' });
    expect(failure(() => verify(cms)).message).toBe(SHA1_DISABLED_MESSAGE);
    expect(verify(cms, SHA1).algorithm).toBe('RSA-SHA1');
  });

  it('refuses a message digest that does not match the content', () => {
    const error = failure(() => verify(buildCms({ content, signer, messageDigest: Buffer.alloc(32, 7) })));
    expect(error).toBeInstanceOf(AuthenticationRefused);
    expect(error.message).toMatch(/message digest does not match/);
    expect(failure(() => verify(buildCms({ content, signer, messageDigest: Buffer.alloc(20, 7) })))).toBeInstanceOf(
      AuthenticationRefused,
    );
  });

  it('refuses an algorithm protection attribute that names other algorithms', () => {
    const error = failure(() => verify(buildCms({ content, signer, algorithmProtection: 'mismatch' })));
    expect(error).toBeInstanceOf(AuthenticationRefused);
    expect(error.message).toMatch(/algorithm protection/);
  });

  it('refuses a signer with the same issuer and serial but another key, and an unknown serial', () => {
    expect(failure(() => verifyPkcs7(buildCms({ content, signer: other }), [signer.trusted]))).toBeInstanceOf(
      AuthenticationRefused,
    );
    const serialNumber = new Uint8Array([0x0a, 0x1b, 0x2c, 0x3e]).buffer;
    const error = failure(() => verify(buildCms({ content, signer, serialNumber })));
    expect(error).toBeInstanceOf(AuthenticationRefused);
    expect(error.message).toMatch(/no trusted certificate/);
  });

  it('refuses a signature algorithm that contradicts the digest algorithm, and unknown algorithms', () => {
    const contradicting = failure(() => verify(buildCms({ content, signer, signatureOid: OID.sha1WithRsa })));
    expect(contradicting).toBeInstanceOf(InvalidRequest);
    expect(contradicting.message).toMatch(/does not match digest algorithm/);
    const unknown = failure(() => verify(buildCms({ content, signer, signatureOid: '1.2.840.10045.4.3.2' })));
    expect(unknown).toBeInstanceOf(InvalidRequest);
    expect(unknown.message).toMatch(/unsupported signature algorithm 1\.2\.840\.10045\.4\.3\.2/);
  });
});

describe('malformed input', () => {
  const genuine = der(SAMPLES[0]!);

  it.each([
    ['empty', ''],
    ['not base64', 'this is not base64!'],
    ['URL-safe base64', genuine.toString('base64url')],
    ['unpadded base64', genuine.toString('base64').replace(/=+$/, '') + 'A'],
    ['broken armour', `-----BEGIN PKCS7-----\n${genuine.toString('base64')}\n-----END CMS-----`],
    [
      'armour with headers',
      `-----BEGIN PKCS7-----\nProc-Type: 4,ENCRYPTED\n${genuine.toString('base64')}\n-----END PKCS7-----`,
    ],
    ['too long', 'A'.repeat(70_000)],
  ])('%s is a 400 that names the problem', (_name, text) => {
    const error = failure(() => verifyPkcs7(text, ALL));
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.message).toMatch(/PKCS#7/);
  });

  it.each([
    ['random bytes', Buffer.from('0123456789abcdef0123456789')],
    ['truncated', genuine.subarray(0, genuine.length - 40)],
    ['trailing bytes', Buffer.concat([genuine, Buffer.from([0, 1, 2])])],
    [
      'deep nesting',
      Buffer.concat([Buffer.alloc(200, 0x30).map((_, i) => (i % 2 ? 0x80 : 0x30)), Buffer.alloc(200, 0)]),
    ],
    ['a length beyond the data', Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x00])],
    ['indefinite primitive', Buffer.from([0x04, 0x80, 0x00, 0x00])],
    ['not signed data', Buffer.from('301006092a864886f70d010703a003020100', 'hex')],
  ])('%s is a 400 parse failure', (_name, bytes) => {
    const error = failure(() => verifyPkcs7(bytes.toString('base64'), ALL));
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.message).toMatch(/^failed to parse the BER encoded PKCS#7 signature: /);
  });

  it('random blobs give a typed error, never an untyped exception', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 600 }), (bytes) => {
        expectTyped(() => verifyPkcs7(Buffer.from(bytes).toString('base64'), ALL, SHA1));
      }),
      { numRuns: 400 },
    );
  });

  it('mutated genuine blobs give success or a typed error', () => {
    const blobs = SAMPLES.map(der);
    const mutation = fc.record({
      blob: fc.nat(blobs.length - 1),
      edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      cut: fc.option(fc.nat()),
    });
    fc.assert(
      fc.property(mutation, ({ blob: which, edits, cut }) => {
        const bytes = Buffer.from(blobs[which]!);
        for (const [position, value] of edits) bytes[position % bytes.length] = value;
        const input = cut === null ? bytes : bytes.subarray(0, cut % bytes.length);
        expectTyped(() => verifyPkcs7(input.toString('base64'), ALL, SHA1));
      }),
      { numRuns: 400 },
    );
  });

  it('mutated structure bytes (tags and lengths near the start) give success or a typed error', () => {
    const bytes = der(SAMPLES[1]!);
    for (let index = 0; index < 120; index++) {
      for (const value of [0x00, 0x04, 0x24, 0x30, 0x80, 0x81, 0x84, 0xa0, 0xff]) {
        const mutated = Buffer.from(bytes);
        mutated[index] = value;
        expectTyped(() => verifyPkcs7(mutated.toString('base64'), ALL));
      }
    }
  });
});

describe('BER reader', () => {
  it('walks definite and indefinite lengths and reassembles a constructed OCTET STRING', () => {
    // [0] { OCTET STRING (constructed, indefinite) { "ab", { "c" }, "" } }, then two bytes beyond it
    const bytes = Buffer.from('a00f2480040261622403040163040000000000', 'hex').subarray(0, 19);
    const cursor = new BerCursor(bytes);
    expect(cursor.skip()).toBe(17);
    cursor.position = 0;
    const outer = cursor.enter(0xa0, 'outer');
    expect(cursor.octetString('inner').toString()).toBe('abc');
    cursor.leave(outer, 'outer');
    expect(cursor.position).toBe(17);
  });

  it.each([
    ['a high tag number over four octets', '1f8181818101', /tag number too large/],
    ['a length of more than four octets', '04850100000000', /length too large/],
    ['a child running past its parent', '30030403616263', /truncated data|overruns/],
    ['a missing end-of-contents', '30800400', /truncated data/],
    ['nesting beyond 32 levels', `${'3080'.repeat(40)}${'0000'.repeat(40)}`, /nesting too deep/],
  ])('refuses %s', (_name, hex, message) => {
    expect(() => new BerCursor(Buffer.from(hex, 'hex')).skip()).toThrow(message);
    expect(() => new BerCursor(Buffer.from(hex, 'hex')).skip()).toThrow(BerError);
  });

  it('refuses a constructed OCTET STRING with other elements inside, and children that do not fill their parent', () => {
    expect(() => new BerCursor(Buffer.from('2403020101', 'hex')).octetString('value')).toThrow(
      /value: unexpected tag 0x2/,
    );
    const cursor = new BerCursor(Buffer.from('300302020101', 'hex'));
    const end = cursor.enter(0x30, 'outer');
    cursor.primitive(0x02, 'integer');
    expect(() => cursor.leave(end, 'outer')).toThrow(/overruns/);
  });
});
