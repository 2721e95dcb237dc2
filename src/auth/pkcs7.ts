import 'reflect-metadata';
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  AsnArray,
  AsnConvert,
  AsnParser,
  AsnProp,
  AsnType,
  AsnTypeTypes,
  OctetString,
} from '@peculiar/asn1-schema';
import { Attribute, ContentInfo, SignedData, type SignerInfo, id_data, id_signedData } from '@peculiar/asn1-cms';
import { AlgorithmIdentifier, Time } from '@peculiar/asn1-x509';
import { AuthenticationRefused, InvalidRequest, isStrongroomError } from '../core/errors.js';
import { decodeBase64 } from '../core/base64.js';
import { octetStringChunks, readElement } from './ber.js';
import { parseTrustedCertificate, signatureVerifies, type ParsedCertificate } from './parsed-certificate.js';
import type { TrustedCertificate } from './trusted-certificate.js';

/**
 * Verification of the PKCS#7 (CMS SignedData) instance identity documents of the metadata service: the `rsa2048`
 * variant (RSA-SHA256) and the legacy `pkcs7` variant (DSA-SHA1). Embedded certificates are ignored: the signer is
 * looked up by issuer and serial number among the trusted certificates only.
 */

export type SignatureAlgorithmName = 'RSA-SHA256' | 'RSA-SHA1' | 'DSA-SHA1';

export interface Pkcs7Options {
  /** Accept SHA-1 signatures (the DSA `pkcs7` document). Off by default (DECISIONS 7). */
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
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const OID_ALGORITHM_PROTECTION = '1.2.840.113549.1.9.52';
// DER of the OBJECT IDENTIFIER id-data: the only content type a contentType attribute may name here.
const ID_DATA_DER = Buffer.from('06092a864886f70d010701', 'hex');

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

/** RFC 6211 CMSAlgorithmProtection, which asn1-cms does not model. */
@AsnType({ type: AsnTypeTypes.Sequence })
class AlgorithmProtection {
  @AsnProp({ type: AlgorithmIdentifier }) digestAlgorithm = new AlgorithmIdentifier();
  @AsnProp({ type: AlgorithmIdentifier, context: 1, implicit: true, optional: true })
  signatureAlgorithm?: AlgorithmIdentifier;
}

/** Signed attributes as the DER SET OF that is actually signed (RFC 5652 §5.4), kept in the order received. */
@AsnType({ type: AsnTypeTypes.Set, itemType: Attribute })
class SignedAttributeSet extends AsnArray<Attribute> {}

/**
 * Verifies the `pkcs7` login field: base64 (line breaks allowed, PEM armour optional) of a CMS SignedData with
 * attached content. Malformed input is InvalidRequest (400); an unknown signer, a digest or signature mismatch, or a
 * signingTime outside the signer certificate's validity is AuthenticationRefused (403). Certificate expiry alone is
 * not enforced (DECISIONS 8). `trusted` is every certificate allowed to sign: the built-in set and the registered
 * `pkcs7` certificates.
 */
export function verifyPkcs7(
  pkcs7: string,
  trusted: readonly TrustedCertificate[],
  options: Pkcs7Options = {},
): VerifiedContent {
  try {
    const signedData = parseSignedData(decodeText(pkcs7));
    const content = encapsulatedContent(signedData);
    if (signedData.signerInfos.length !== 1) throw malformed('expected exactly one signer');
    return verifySigner(signedData.signerInfos[0] as SignerInfo, content, trusted, options.allowSha1 === true);
  } catch (error) {
    // The BER walk and asn1-schema throw plain errors on shapes they do not expect; all of them are malformed input.
    if (isStrongroomError(error)) throw error;
    throw malformed(error instanceof Error ? error.message : String(error));
  }
}

function decodeText(text: string): Buffer {
  if (text.length > MAX_PKCS7_LENGTH) throw new InvalidRequest(`the PKCS#7 signature is longer than ${MAX_PKCS7_LENGTH} characters`);
  const armoured = /^\s*-----BEGIN (PKCS7|CMS)-----([A-Za-z0-9+/=\s]*)-----END \1-----\s*$/.exec(text);
  const body = armoured ? (armoured[2] as string) : text;
  const der = body.includes('-') ? undefined : decodeBase64(body, { ignoreWhitespace: true });
  if (!der || der.length === 0) throw new InvalidRequest('failed to decode the PEM encoded PKCS#7 signature');
  return der;
}

function parseSignedData(der: Buffer): SignedData {
  // asn1-schema ignores trailing bytes and recurses without limit; the walk rejects both before it sees the input.
  if (readElement(der, 0).end !== der.length) throw malformed('trailing bytes after the signature');
  const info = AsnParser.parse(der, ContentInfo);
  if (info.contentType !== id_signedData) throw malformed(`content type ${info.contentType} is not signedData`);
  return AsnParser.parse(info.content, SignedData);
}

function encapsulatedContent(signedData: SignedData): Buffer {
  const { eContentType, eContent } = signedData.encapContentInfo;
  if (eContentType !== id_data) throw malformed(`encapsulated content type ${eContentType} is not data`);
  let content: Buffer | undefined;
  if (eContent?.single) content = Buffer.from(eContent.single.buffer);
  else if (eContent?.any) {
    // A BER constructed OCTET STRING reaches us raw; its chunks concatenated are the content.
    const raw = Buffer.from(eContent.any);
    content = Buffer.concat(octetStringChunks(raw, readElement(raw, 0)));
  }
  if (!content || content.length === 0) throw new InvalidRequest('instance identity document could not be found in the signature');
  return content;
}

function verifySigner(signer: SignerInfo, content: Buffer, trusted: readonly TrustedCertificate[], allowSha1: boolean): VerifiedContent {
  const algorithm = signatureAlgorithm(signer);
  if (algorithm.hash === 'sha1' && !allowSha1) throw new InvalidRequest(SHA1_DISABLED_MESSAGE);

  let signedBytes = content;
  let signingTime: Date | undefined;
  if (signer.signedAttrs !== undefined) {
    signingTime = checkSignedAttributes(signer, content, algorithm.hash);
    signedBytes = Buffer.from(AsnConvert.serialize(new SignedAttributeSet(signer.signedAttrs)));
  }

  const certificate = signerCertificate(signer, trusted);
  if (certificate.keyType !== algorithm.keyType) {
    throw new AuthenticationRefused(`${VERIFY_FAILURE}: the signer's certificate does not hold a ${algorithm.keyType.toUpperCase()} key`);
  }
  if (!signatureVerifies(certificate, algorithm.hash, signedBytes, Buffer.from(signer.signature.buffer))) {
    throw new AuthenticationRefused(`${VERIFY_FAILURE}: signature mismatch`);
  }
  if (signingTime && (signingTime < certificate.notBefore || signingTime > certificate.notAfter)) {
    throw new AuthenticationRefused(
      `${VERIFY_FAILURE}: signing time ${signingTime.toISOString()} is outside the validity of certificate "${certificate.certificate.name}"`,
    );
  }
  const result: VerifiedContent = { content, signer: certificate.certificate, algorithm: algorithm.name };
  if (signingTime) result.signingTime = signingTime;
  return result;
}

function signatureAlgorithm(signer: SignerInfo): { keyType: 'rsa' | 'dsa'; hash: Hash; name: SignatureAlgorithmName } {
  const digestOid = signer.digestAlgorithm.algorithm;
  const hash = DIGESTS.get(digestOid);
  if (!hash) throw new InvalidRequest(`${VERIFY_FAILURE}: unsupported digest algorithm ${digestOid}`);
  const signatureOid = signer.signatureAlgorithm.algorithm;
  const signature = SIGNATURES.get(signatureOid);
  if (!signature) throw new InvalidRequest(`${VERIFY_FAILURE}: unsupported signature algorithm ${signatureOid}`);
  if (signature.hash && signature.hash !== hash) {
    throw new InvalidRequest(`${VERIFY_FAILURE}: signature algorithm ${signatureOid} does not match digest algorithm ${digestOid}`);
  }
  const name = `${signature.keyType}-${hash}`.toUpperCase() as SignatureAlgorithmName;
  return { keyType: signature.keyType, hash, name };
}

/** Checks the signed attributes that bind the signature to the content and returns the signing time, if any. */
function checkSignedAttributes(signer: SignerInfo, content: Buffer, hash: Hash): Date | undefined {
  const attributes = signer.signedAttrs ?? [];
  const contentType = requiredAttributeValue(attributes, OID_CONTENT_TYPE);
  if (!ID_DATA_DER.equals(Buffer.from(contentType))) throw malformed('the signed content type is not data');

  const expected = Buffer.from(AsnParser.parse(requiredAttributeValue(attributes, OID_MESSAGE_DIGEST), OctetString).buffer);
  const actual = createHash(hash).update(content).digest();
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw new AuthenticationRefused(`${VERIFY_FAILURE}: the message digest does not match the content`);
  }

  const protection = attributeValue(attributes, OID_ALGORITHM_PROTECTION);
  if (protection) {
    const declared = AsnParser.parse(protection, AlgorithmProtection);
    if (
      declared.digestAlgorithm.algorithm !== signer.digestAlgorithm.algorithm ||
      declared.signatureAlgorithm?.algorithm !== signer.signatureAlgorithm.algorithm
    ) {
      throw new AuthenticationRefused(`${VERIFY_FAILURE}: the algorithm protection attribute does not match the signer's algorithms`);
    }
  }

  const signingTime = attributeValue(attributes, OID_SIGNING_TIME);
  if (!signingTime) return undefined;
  const time = AsnParser.parse(signingTime, Time).getTime();
  if (Number.isNaN(time.getTime())) throw malformed('invalid signing time');
  return time;
}

/** The value of the attribute of this type, undefined if absent; RFC 5652 §11 forbids repeated attributes and values. */
function attributeValue(attributes: readonly Attribute[], type: string): ArrayBuffer | undefined {
  const found = attributes.filter((attribute) => attribute.attrType === type);
  if (found.length === 0) return undefined;
  if (found.length > 1 || found[0]?.attrValues.length !== 1) throw malformed(`signed attribute ${type} must occur once with one value`);
  return found[0].attrValues[0];
}

function requiredAttributeValue(attributes: readonly Attribute[], type: string): ArrayBuffer {
  const value = attributeValue(attributes, type);
  if (!value) throw malformed(`signed attribute ${type} is missing`);
  return value;
}

function signerCertificate(signer: SignerInfo, trusted: readonly TrustedCertificate[]): ParsedCertificate {
  const id = signer.sid.issuerAndSerialNumber;
  if (id) {
    const issuer = Buffer.from(AsnConvert.serialize(id.issuer));
    const serialNumber = Buffer.from(id.serialNumber);
    for (const candidate of trusted) {
      const parsed = parseTrustedCertificate(candidate);
      if (parsed && parsed.serialNumber.equals(serialNumber) && parsed.issuer.equals(issuer)) return parsed;
    }
  }
  throw new AuthenticationRefused(`${VERIFY_FAILURE}: no trusted certificate matches the signer`);
}

function malformed(detail: string): InvalidRequest {
  return new InvalidRequest(`${PARSE_FAILURE}: ${detail.length > 200 ? `${detail.slice(0, 197)}...` : detail}`);
}
