import 'reflect-metadata';
import { createHash, KeyObject, sign, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { AsnConvert, AsnParser, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, Time } from '@peculiar/asn1-x509';
import {
  Attribute,
  CMSVersion,
  ContentInfo,
  DigestAlgorithmIdentifier,
  DigestAlgorithmIdentifiers,
  EncapsulatedContent,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  SignatureAlgorithmIdentifier,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
  id_data,
  id_signedData,
} from '@peculiar/asn1-cms';
import type { TrustedCertificate } from '../../src/auth/pkcs7/trusted-certificate.js';

/**
 * Builds CMS SignedData documents shaped like the metadata service's, signed by a throw-away RSA certificate, to
 * cover encodings the genuine samples lack. Tests only.
 */

export const OID = {
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha1WithRsa: '1.2.840.113549.1.1.5',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  algorithmProtection: '1.2.840.113549.1.9.52',
} as const;

export interface TestSigner {
  trusted: TrustedCertificate;
  privateKey: KeyObject;
  certificate: Certificate;
}

export async function createSigner(options: {
  name: string;
  notBefore: Date;
  notAfter: Date;
  serialNumber: string;
}): Promise<TestSigner> {
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const generated = await x509.X509CertificateGenerator.createSelfSigned(
    {
      name: `CN=${options.name}`,
      notBefore: options.notBefore,
      notAfter: options.notAfter,
      serialNumber: options.serialNumber,
      keys,
    },
    webcrypto,
  );
  return {
    trusted: { name: options.name, type: 'pkcs7', pem: generated.toString('pem'), builtin: false },
    privateKey: KeyObject.from(keys.privateKey),
    certificate: AsnParser.parse(generated.rawData, Certificate),
  };
}

export interface CmsOptions {
  content: Buffer;
  signer: TestSigner;
  digest?: 'sha256' | 'sha1';
  /** Default sha256WithRSAEncryption (sha1WithRSAEncryption for a sha1 digest). */
  signatureOid?: string;
  /** Write the digest AlgorithmIdentifier's NULL parameters (default true). */
  digestNullParameters?: boolean;
  /** Add the CMSAlgorithmProtection attribute; `mismatch` names another signature algorithm in it. */
  algorithmProtection?: boolean | 'mismatch';
  signingTime?: Date;
  /** Sign the content directly, without signed attributes. */
  withoutSignedAttributes?: boolean;
  /** Send the content as a constructed OCTET STRING of chunks of these sizes instead of a primitive one. */
  chunkSizes?: number[];
  /** Override the messageDigest attribute. */
  messageDigest?: Buffer;
  /** Signer identifiers: default the certificate's issuer and serial. */
  serialNumber?: ArrayBuffer;
}

/** Returns the base64 (unwrapped) of a DER CMS SignedData, as a `pkcs7` login field carries it. */
export function buildCms(options: CmsOptions): string {
  const digest = options.digest ?? 'sha256';
  const digestOid = OID[digest];
  const signatureOid = options.signatureOid ?? (digest === 'sha1' ? OID.sha1WithRsa : OID.sha256WithRsa);
  const digestAlgorithm = new DigestAlgorithmIdentifier({
    algorithm: digestOid,
    parameters: options.digestNullParameters === false ? undefined : null,
  });
  const signatureAlgorithm = new SignatureAlgorithmIdentifier({ algorithm: signatureOid, parameters: null });

  let signedAttrs: Attribute[] | undefined;
  let signed = options.content;
  if (!options.withoutSignedAttributes) {
    signedAttrs = [
      attribute(OID.contentType, Buffer.from('06092a864886f70d010701', 'hex')),
      ...(options.signingTime ? [attribute(OID.signingTime, AsnConvert.serialize(new Time(options.signingTime)))] : []),
      ...(options.algorithmProtection
        ? [
            attribute(
              OID.algorithmProtection,
              algorithmProtection(
                digestOid,
                options.algorithmProtection === 'mismatch' ? OID.rsaEncryption : signatureOid,
              ),
            ),
          ]
        : []),
      attribute(
        OID.messageDigest,
        AsnConvert.serialize(
          new OctetString(options.messageDigest ?? createHash(digest).update(options.content).digest()),
        ),
      ),
    ];
    signed = derSet(signedAttrs.map((item) => Buffer.from(AsnConvert.serialize(item))));
  }

  const tbs = options.signer.certificate.tbsCertificate;
  const signerInfo = new SignerInfo({
    version: CMSVersion.v1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({
        issuer: tbs.issuer,
        serialNumber: options.serialNumber ?? tbs.serialNumber,
      }),
    }),
    digestAlgorithm,
    signatureAlgorithm,
    signature: new OctetString(sign(digest, signed, options.signer.privateKey)),
  });
  if (signedAttrs) signerInfo.signedAttrs = signedAttrs;

  const eContent = options.chunkSizes
    ? new EncapsulatedContent({ any: toArrayBuffer(chunkedOctetString(options.content, options.chunkSizes)) })
    : new EncapsulatedContent({ single: new OctetString(options.content) });
  const signedData = new SignedData({
    version: CMSVersion.v1,
    digestAlgorithms: new DigestAlgorithmIdentifiers([digestAlgorithm]),
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: id_data, eContent }),
    signerInfos: new SignerInfos([signerInfo]),
  });
  const info = new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) });
  return Buffer.from(AsnConvert.serialize(info)).toString('base64');
}

function attribute(type: string, value: ArrayBuffer | Buffer): Attribute {
  return new Attribute({ attrType: type, attrValues: [toArrayBuffer(Buffer.from(value as ArrayBuffer))] });
}

function algorithmProtection(digestOid: string, signatureOid: string): Buffer {
  const digest = Buffer.from(AsnConvert.serialize(new AlgorithmIdentifier({ algorithm: digestOid, parameters: null })));
  const signature = Buffer.from(
    AsnConvert.serialize(new AlgorithmIdentifier({ algorithm: signatureOid, parameters: null })),
  );
  signature[0] = 0xa1; // [1] IMPLICIT signatureAlgorithm
  return tlv(0x30, Buffer.concat([digest, signature]));
}

function chunkedOctetString(content: Buffer, sizes: number[]): Buffer {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const size of sizes) {
    chunks.push(tlv(0x04, content.subarray(offset, offset + size)));
    offset += size;
  }
  if (offset < content.length) chunks.push(tlv(0x04, content.subarray(offset)));
  return tlv(0x24, Buffer.concat(chunks));
}

function derSet(items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  const header =
    length < 0x80 ? [tag, length] : length < 0x100 ? [tag, 0x81, length] : [tag, 0x82, length >> 8, length & 0xff];
  return Buffer.concat([Buffer.from(header), content]);
}

function toArrayBuffer(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
