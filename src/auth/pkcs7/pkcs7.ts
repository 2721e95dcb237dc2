import { timingSafeEqual } from 'node:crypto';
import { AuthenticationRefused, InvalidRequest, isStrongroomError } from '../../lib/errors.js';
import { decodeBase64 } from '../../lib/base64.js';
import { readTime } from './asn1-time.js';
import { BerCursor } from './ber.js';
import {
  ID_DATA,
  readAlgorithm,
  readSignedData,
  type AttributeValue,
  type SignedAttributes,
  type Signer,
} from './signed-data.js';
import { findTrustedCertificate, signatureVerifies, type ParsedCertificate } from './parsed-certificate.js';
import { binaryDigest } from './rsa-signature.js';
import type { TrustedCertificate } from './trusted-certificate.js';

/**
 * Verification of the PKCS#7 (CMS SignedData) instance identity documents of the metadata service: the `rsa2048`
 * variant (RSA-SHA256) and the legacy `pkcs7` variant (DSA-SHA1). Embedded certificates are ignored: the signer is
 * looked up by issuer and serial number among the trusted certificates only.
 */

export type SignatureAlgorithmName = 'RSA-SHA256' | 'RSA-SHA1' | 'DSA-SHA1';

export interface Pkcs7Options {
  /** Accept SHA-1 signatures (the DSA `pkcs7` document). Off by default: SHA-1 signatures can be forged. */
  allowSha1?: boolean;
}

/** Content whose signature verified, and who signed it. Read the identity from `content` only. */
export interface VerifiedContent {
  content: Buffer;
  signer: TrustedCertificate;
  algorithm: SignatureAlgorithmName;
  /** The signed signingTime attribute, when the document has one. */
  signingTime?: Date;
}

// AWS documents are about 1.5 KB; the cap bounds the work an anonymous caller can ask for.
const MAX_PKCS7_LENGTH = 64 * 1024;

const PARSE_FAILURE = 'failed to parse the BER encoded PKCS#7 signature';
const VERIFY_FAILURE = 'failed to verify the signature';
export const SHA1_DISABLED_MESSAGE =
  `${VERIFY_FAILURE}: SHA-1 signatures are disabled and this PKCS#7 document is signed with SHA-1 (the DSA "pkcs7" ` +
  'document); log in with the RSA-SHA256 "rsa2048" document (instance metadata /latest/dynamic/instance-identity/rsa2048) instead';

const OID_SHA1 = '1.3.14.3.2.26';
const OID_SHA256 = '2.16.840.1.101.3.4.2.1';

type Hash = 'sha1' | 'sha256';
const DIGESTS = new Map<string, Hash>([
  [OID_SHA1, 'sha1'],
  [OID_SHA256, 'sha256'],
]);
// A signature OID either fixes the hash or (rsaEncryption) takes the digest algorithm's.
const SIGNATURES = new Map<string, { keyType: 'rsa' | 'dsa'; hash?: Hash }>([
  ['1.2.840.113549.1.1.1', { keyType: 'rsa' }],
  ['1.2.840.113549.1.1.5', { keyType: 'rsa', hash: 'sha1' }],
  ['1.2.840.113549.1.1.11', { keyType: 'rsa', hash: 'sha256' }],
  ['1.2.840.10040.4.3', { keyType: 'dsa', hash: 'sha1' }],
]);

// DSA only comes with SHA-1 (its signature OID fixes the hash).
const ALGORITHM_NAMES = {
  rsa: { sha256: 'RSA-SHA256', sha1: 'RSA-SHA1' },
  dsa: { sha256: undefined, sha1: 'DSA-SHA1' },
} as const;

/**
 * Verifies the `pkcs7` login field: base64 (line breaks allowed, PEM armour optional) of a CMS SignedData with
 * attached content. Malformed input is InvalidRequest (400); an unknown signer, a digest or signature mismatch, or a
 * signingTime outside the signer certificate's validity is AuthenticationRefused (403). Certificate expiry alone is
 * not enforced: AWS reuses keys across rotated certificates, and documents outlive them. `trusted` is every
 * certificate allowed to sign: the built-in set and the registered `pkcs7` certificates.
 */
export function verifyPkcs7(
  pkcs7: string,
  trusted: readonly TrustedCertificate[],
  options: Pkcs7Options = {},
): VerifiedContent {
  try {
    const { content, signer } = readSignedData(decodeText(pkcs7));
    return verifySigner(signer, content, trusted, options.allowSha1 === true);
  } catch (error) {
    // The BER walk throws plain errors (BerError) on shapes it does not expect: all of them are malformed input.
    if (isStrongroomError(error)) throw error;
    throw malformed(error instanceof Error ? error.message : String(error));
  }
}

function decodeText(text: string): Buffer {
  if (text.length > MAX_PKCS7_LENGTH)
    throw new InvalidRequest(`the PKCS#7 signature is longer than ${MAX_PKCS7_LENGTH} characters`);
  const armoured = /^\s*-----BEGIN (PKCS7|CMS)-----([A-Za-z0-9+/=\s]*)-----END \1-----\s*$/.exec(text);
  const body = armoured ? (armoured[2] as string) : text;
  const der = body.includes('-') ? undefined : decodeBase64(body, { ignoreWhitespace: true });
  if (!der || der.length === 0) throw new InvalidRequest('failed to decode the PEM encoded PKCS#7 signature');
  return der;
}

function verifySigner(
  signer: Signer,
  content: Buffer,
  trusted: readonly TrustedCertificate[],
  allowSha1: boolean,
): VerifiedContent {
  const algorithm = signatureAlgorithm(signer);
  if (algorithm.hash === 'sha1' && !allowSha1) throw new InvalidRequest(SHA1_DISABLED_MESSAGE);

  let signedBytes: Uint8Array = content;
  let signingTime: Date | undefined;
  if (signer.signedAttributes !== undefined) {
    signingTime = checkSignedAttributes(signer, signer.signedAttributes, content, algorithm.hash);
    signedBytes = signer.signedAttributes.der;
  }

  const certificate = signerCertificate(signer, trusted);
  if (certificate.keyType !== algorithm.keyType) {
    throw new AuthenticationRefused(
      `${VERIFY_FAILURE}: the signer's certificate does not hold a ${algorithm.keyType.toUpperCase()} key`,
    );
  }
  if (!signatureVerifies(certificate, algorithm.hash, signedBytes, signer.signature)) {
    throw new AuthenticationRefused(`${VERIFY_FAILURE}: signature mismatch`);
  }
  // Compared as numbers: relational operators on Dates go through ToPrimitive, which showed in the profile.
  const time = signingTime?.getTime() ?? Number.NaN;
  if (signingTime && (time < certificate.notBefore.getTime() || time > certificate.notAfter.getTime())) {
    throw new AuthenticationRefused(
      `${VERIFY_FAILURE}: signing time ${signingTime.toISOString()} is outside the validity of certificate "${certificate.certificate.name}"`,
    );
  }
  const result: VerifiedContent = { content, signer: certificate.certificate, algorithm: algorithm.name };
  if (signingTime) result.signingTime = signingTime;
  return result;
}

function signatureAlgorithm(signer: Signer): { keyType: 'rsa' | 'dsa'; hash: Hash; name: SignatureAlgorithmName } {
  const digestOid = signer.digestAlgorithm;
  const hash = DIGESTS.get(digestOid);
  if (!hash) throw new InvalidRequest(`${VERIFY_FAILURE}: unsupported digest algorithm ${digestOid}`);
  const signatureOid = signer.signatureAlgorithm;
  const signature = SIGNATURES.get(signatureOid);
  if (!signature) throw new InvalidRequest(`${VERIFY_FAILURE}: unsupported signature algorithm ${signatureOid}`);
  if (signature.hash && signature.hash !== hash) {
    throw new InvalidRequest(
      `${VERIFY_FAILURE}: signature algorithm ${signatureOid} does not match digest algorithm ${digestOid}`,
    );
  }
  return { keyType: signature.keyType, hash, name: ALGORITHM_NAMES[signature.keyType][hash] as SignatureAlgorithmName };
}

/** Checks the signed attributes that bind the signature to the content and returns the signing time, if any. */
function checkSignedAttributes(
  signer: Signer,
  attributes: SignedAttributes,
  content: Buffer,
  hash: Hash,
): Date | undefined {
  // Attribute values are read as received, so BER framing is allowed in them as in the rest of the document.
  const contentType = new BerCursor(requiredAttributeValue(attributes.contentType, 'contentType'));
  contentType.objectIdentifier('contentType');
  if (!contentType.objectIdentifierIs(ID_DATA)) throw malformed('the signed content type is not data');

  const expected = new BerCursor(requiredAttributeValue(attributes.messageDigest, 'messageDigest')).octetString(
    'messageDigest',
  );
  const actual = binaryDigest(hash, content);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw new AuthenticationRefused(`${VERIFY_FAILURE}: the message digest does not match the content`);
  }

  const protection = attributeValue(attributes.algorithmProtection, 'CMSAlgorithmProtection');
  if (protection) {
    const declared = algorithmProtection(protection);
    if (
      declared.digestAlgorithm !== signer.digestAlgorithm ||
      declared.signatureAlgorithm !== signer.signatureAlgorithm
    ) {
      throw new AuthenticationRefused(
        `${VERIFY_FAILURE}: the algorithm protection attribute does not match the signer's algorithms`,
      );
    }
  }

  const signingTime = attributeValue(attributes.signingTime, 'signingTime');
  if (!signingTime) return undefined;
  return readTime(signingTime, 'signing time');
}

/** RFC 6211 CMSAlgorithmProtection: the digest algorithm, then the signature algorithm as [1] IMPLICIT. */
function algorithmProtection(value: Uint8Array): { digestAlgorithm: string; signatureAlgorithm?: string } {
  const cursor = new BerCursor(value);
  const end = cursor.enter(0x30, 'CMSAlgorithmProtection');
  if (!cursor.more(end)) throw malformed('CMSAlgorithmProtection: missing fields');
  const digestAlgorithm = readAlgorithm(cursor, 'CMSAlgorithmProtection digestAlgorithm');
  let signatureAlgorithm: string | undefined;
  while (cursor.more(end)) {
    if (signatureAlgorithm === undefined && cursor.peek() === 0xa1)
      signatureAlgorithm = readAlgorithm(cursor, 'CMSAlgorithmProtection signatureAlgorithm', 0xa1);
    else cursor.skip();
  }
  return { digestAlgorithm, signatureAlgorithm };
}

/** Whether an attribute value is NULL, which counts as absent. */
function isNull(value: Uint8Array): boolean {
  if (value[0] !== 0x05) return false;
  const cursor = new BerCursor(value);
  cursor.peek();
  return cursor.length === 0;
}

/** The value of a signed attribute, if present; a NULL value counts as absent. */
function attributeValue(value: AttributeValue, name: string): Uint8Array | undefined {
  if (value === null) throw malformed(`signed attribute ${name} must occur once with one value`);
  return value === undefined || isNull(value) ? undefined : value;
}

function requiredAttributeValue(value: AttributeValue, name: string): Uint8Array {
  const present = attributeValue(value, name);
  if (!present) throw malformed(`signed attribute ${name} is missing`);
  return present;
}

function signerCertificate(signer: Signer, trusted: readonly TrustedCertificate[]): ParsedCertificate {
  const found =
    signer.issuer && signer.serialNumber && findTrustedCertificate(trusted, signer.issuer, signer.serialNumber);
  if (found) return found;
  throw new AuthenticationRefused(`${VERIFY_FAILURE}: no trusted certificate matches the signer`);
}

function malformed(detail: string): InvalidRequest {
  return new InvalidRequest(`${PARSE_FAILURE}: ${detail.length > 200 ? `${detail.slice(0, 197)}...` : detail}`);
}
