// An independent verifier of CMS SignedData documents for the differential tests of src/auth/pkcs7/pkcs7.ts: the
// parsing is @peculiar/asn1-cms (asn1-schema over asn1js), the hashing and the signature check node:crypto, and nothing
// of src/auth is used. It answers whether a document is validly signed by one of the trusted certificates, and its
// content.
import 'reflect-metadata';
import { createHash, verify, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import { AsnConvert, AsnParser } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { ContentInfo, SignedData, id_data, id_signedData, type Attribute } from '@peculiar/asn1-cms';
import type { TrustedCertificate } from '../../../src/auth/pkcs7/trusted-certificate.js';

export type OracleVerdict = { valid: true; content: Buffer } | { valid: false; reason: string };

const DIGESTS: Record<string, 'sha1' | 'sha256'> = { '1.3.14.3.2.26': 'sha1', '2.16.840.1.101.3.4.2.1': 'sha256' };
const SIGNATURES: Record<string, { key: 'rsa' | 'dsa'; hash?: 'sha1' | 'sha256' }> = {
  '1.2.840.113549.1.1.1': { key: 'rsa' },
  '1.2.840.113549.1.1.5': { key: 'rsa', hash: 'sha1' },
  '1.2.840.113549.1.1.11': { key: 'rsa', hash: 'sha256' },
  '1.2.840.10040.4.3': { key: 'dsa', hash: 'sha1' },
};
const CONTENT_TYPE = '1.2.840.113549.1.9.3';
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';

class Invalid extends Error {}

function check(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new Invalid(reason);
}

/** The BER element `bytes` holds, which must fill it exactly. */
function element(bytes: ArrayBuffer | Uint8Array, what: string): asn1js.AsnType {
  const buffer = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const parsed = asn1js.fromBER(buffer);
  check(parsed.offset !== -1 && parsed.offset === buffer.byteLength, `${what} is not one BER element`);
  return parsed.result;
}

/** The octets of an OCTET STRING, primitive or constructed (its segments joined). */
function octets(value: asn1js.AsnType, what: string): Buffer {
  check(value instanceof asn1js.OctetString, `${what} is not an OCTET STRING`);
  if (!value.idBlock.isConstructed) return Buffer.from(value.valueBlock.valueHexView);
  return Buffer.concat(value.valueBlock.value.map((segment) => octets(segment, what)));
}

function attributeValue(attributes: Attribute[], type: string): ArrayBuffer {
  const matching = attributes.filter((attribute) => attribute.attrType === type);
  check(
    matching.length === 1 && matching[0]!.attrValues.length === 1,
    `attribute ${type} must occur once with one value`,
  );
  return matching[0]!.attrValues[0]!;
}

interface Named {
  x509: X509Certificate;
  issuer: Buffer;
  serial: Buffer;
}
const named = new Map<string, Named>();

/** A certificate with its issuer (DER) and serial number, as asn1-x509 reads them; decoded once per PEM. */
function namedCertificate(pem: string): Named {
  let found = named.get(pem);
  if (!found) {
    const x509 = new X509Certificate(pem);
    const tbs = AsnParser.parse(x509.raw, Certificate).tbsCertificate;
    found = { x509, issuer: Buffer.from(AsnConvert.serialize(tbs.issuer)), serial: Buffer.from(tbs.serialNumber) };
    named.set(pem, found);
  }
  return found;
}

function trustedSigner(trusted: readonly TrustedCertificate[], issuer: Buffer, serial: Buffer): X509Certificate {
  for (const candidate of trusted) {
    const { x509, issuer: candidateIssuer, serial: candidateSerial } = namedCertificate(candidate.pem);
    if (candidateIssuer.equals(issuer) && candidateSerial.equals(serial)) return x509;
  }
  throw new Invalid('no trusted certificate matches the signer');
}

function judge(der: Buffer, trusted: readonly TrustedCertificate[]): Buffer {
  element(der, 'the document');
  const info = AsnParser.parse(der, ContentInfo);
  check(info.contentType === id_signedData, 'not signedData');
  const signedData = AsnParser.parse(info.content, SignedData);
  const encapsulated = signedData.encapContentInfo;
  check(encapsulated.eContentType === id_data, 'content type is not data');
  const eContent = encapsulated.eContent;
  check(eContent, 'no attached content');
  const content = eContent.single
    ? Buffer.from(eContent.single.buffer)
    : octets(element(eContent.any!, 'eContent'), 'eContent');
  check(signedData.signerInfos.length === 1, 'not exactly one signer');
  const signer = signedData.signerInfos[0]!;
  const sid = signer.sid.issuerAndSerialNumber;
  check(sid, 'the signer is not named by issuer and serial number');
  const certificate = trustedSigner(
    trusted,
    Buffer.from(AsnConvert.serialize(sid.issuer)),
    Buffer.from(sid.serialNumber),
  );

  const hash = DIGESTS[signer.digestAlgorithm.algorithm];
  const signature = SIGNATURES[signer.signatureAlgorithm.algorithm];
  check(hash && signature, 'unknown algorithm');
  check(!signature.hash || signature.hash === hash, 'the signature algorithm contradicts the digest algorithm');
  check(certificate.publicKey.asymmetricKeyType === signature.key, 'the key is of another kind');

  let signed: Buffer = content;
  if (signer.signedAttrs) {
    const attributes = signer.signedAttrs;
    check(
      element(attributeValue(attributes, CONTENT_TYPE), 'contentType').valueBlock.toString() === id_data,
      'content type attribute is not data',
    );
    const digest = octets(element(attributeValue(attributes, MESSAGE_DIGEST), 'messageDigest'), 'messageDigest');
    check(digest.equals(createHash(hash).update(content).digest()), 'message digest mismatch');
    // RFC 5652 §5.4: the signature covers the DER encoding of the attributes as a SET OF.
    const set = new asn1js.Set({
      value: attributes.map((attribute) => element(AsnConvert.serialize(attribute), 'attribute')),
    });
    signed = Buffer.from(set.toBER());
  }
  check(verify(hash, signed, certificate.publicKey, Buffer.from(signer.signature.buffer)), 'signature mismatch');
  return content;
}

/** Whether `der` is a SignedData validly signed, with its content attached, by one of `trusted`. */
export function oracleVerify(der: Buffer, trusted: readonly TrustedCertificate[]): OracleVerdict {
  try {
    return { valid: true, content: judge(der, trusted) };
  } catch (error) {
    return { valid: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
