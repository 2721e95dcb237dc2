/**
 * A throw-away certificate authority that signs instance identity documents the way the metadata service does: as a
 * PKCS#7 (CMS SignedData, the `pkcs7` login field) and as the document with a detached RSA-SHA256 signature (the
 * `identity` + `signature` fields). Register `certificatePem` through `config/certificate/<name>` (type `pkcs7` or
 * `identity`) and the auth method trusts documents this signer produces.
 *
 *   const signer = await IdentityDocumentSigner.create();
 *   await auth.handle({ operation: 'update', path: 'config/certificate/test-ca', data: { aws_public_cert: signer.certificatePem } });
 *   const { pkcs7 } = signer.sign({ instanceId, accountId, region, imageId, pendingTime });
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  Certificate,
  Name,
  RelativeDistinguishedName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Time,
  Validity,
  Version,
} from '@peculiar/asn1-x509';
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

const sha256Oid = '2.16.840.1.101.3.4.2.1';
const sha256WithRsaOid = '1.2.840.113549.1.1.11';
const contentTypeOid = '1.2.840.113549.1.9.3';
const messageDigestOid = '1.2.840.113549.1.9.4';
const signingTimeOid = '1.2.840.113549.1.9.5';
const commonNameOid = '2.5.4.3';

/** The fields an instance identity document carries; the auth method reads the first five. */
export interface IdentityDocumentFields {
  instanceId: string;
  accountId: string;
  region: string;
  imageId: string;
  /** When the instance last started; default an hour ago. */
  pendingTime?: Date;
  instanceType?: string;
  availabilityZone?: string;
}

/** What `IdentityDocumentSigner.sign` answers: the document, and the login fields that carry it. */
export interface SignedIdentityDocument {
  /** The JSON document as the metadata service prints it. */
  document: string;
  /** Base64 DER PKCS#7 of the document: the ec2 login's `pkcs7` field. */
  pkcs7: string;
  /** Base64 of the document: the `identity` field. */
  identity: string;
  /** Base64 RSA PKCS#1 v1.5 SHA-256 signature of the document: the `signature` field. */
  signature: string;
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function attribute(type: string, value: ArrayBuffer): Attribute {
  return new Attribute({ attrType: type, attrValues: [value] });
}

/**
 * A test certificate authority standing in for AWS's signing certificate: make one with `create()`, register its
 * `certificatePem` with the auth method (`config/certificate/<name>`), then `sign` identity documents for ec2 logins.
 */
export class IdentityDocumentSigner {
  private constructor(
    /** PEM of the self-signed certificate to register with the auth method. */
    readonly certificatePem: string,
    private readonly certificate: TBSCertificate,
    private readonly privateKey: KeyObject,
  ) {}

  /** A fresh RSA-2048 key and a self-signed certificate for it (`CN=<commonName>`, valid for `validDays`). */
  static async create(options: { commonName?: string; validDays?: number } = {}): Promise<IdentityDocumentSigner> {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const name = new Name([
      new RelativeDistinguishedName([
        new AttributeTypeAndValue({
          type: commonNameOid,
          value: new AttributeValue({ utf8String: options.commonName ?? 'strongroom test identity CA' }),
        }),
      ]),
    ]);
    const now = Date.now();
    const algorithm = new AlgorithmIdentifier({ algorithm: sha256WithRsaOid, parameters: null });
    const serial = randomBytes(8);
    serial[0] = (serial[0] as number) & 0x7f; // a positive INTEGER
    const tbsCertificate = new TBSCertificate({
      version: Version.v3,
      serialNumber: toArrayBuffer(serial),
      signature: algorithm,
      issuer: name,
      validity: new Validity({
        notBefore: new Date(now - 86_400_000),
        notAfter: new Date(now + (options.validDays ?? 365) * 86_400_000),
      }),
      subject: name,
      subjectPublicKeyInfo: AsnConvert.parse(publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo),
    });
    const signatureValue = sign('sha256', Buffer.from(AsnConvert.serialize(tbsCertificate)), privateKey);
    const certificate = new Certificate({
      tbsCertificate,
      signatureAlgorithm: algorithm,
      signatureValue: toArrayBuffer(signatureValue),
    });
    const der = Buffer.from(AsnConvert.serialize(certificate)).toString('base64');
    const pem = `-----BEGIN CERTIFICATE-----\n${der.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
    return new IdentityDocumentSigner(pem, tbsCertificate, privateKey);
  }

  /**
   * A document with `fields` (availability zone `<region>a` and instance type `t3.micro` unless given), signed as a
   * PKCS#7 and with a detached signature, as the metadata service serves it.
   */
  sign(fields: IdentityDocumentFields): SignedIdentityDocument {
    const pendingTime = (fields.pendingTime ?? new Date(Date.now() - 3_600_000))
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    const document = JSON.stringify(
      {
        accountId: fields.accountId,
        architecture: 'x86_64',
        availabilityZone: fields.availabilityZone ?? `${fields.region}a`,
        imageId: fields.imageId,
        instanceId: fields.instanceId,
        instanceType: fields.instanceType ?? 't3.micro',
        pendingTime,
        region: fields.region,
        version: '2017-09-30',
      },
      null,
      2,
    );
    const content = Buffer.from(document);
    return {
      document,
      pkcs7: this.pkcs7Of(content),
      identity: content.toString('base64'),
      signature: sign('sha256', content, this.privateKey).toString('base64'),
    };
  }

  /** CMS SignedData with signed attributes (content type, signing time, digest), as the metadata service builds it. */
  private pkcs7Of(content: Buffer): string {
    const digestAlgorithm = new DigestAlgorithmIdentifier({ algorithm: sha256Oid, parameters: null });
    const signedAttrs = [
      attribute(contentTypeOid, idDataDer),
      attribute(signingTimeOid, AsnConvert.serialize(new Time(new Date()))),
      attribute(messageDigestOid, AsnConvert.serialize(new OctetString(createHash('sha256').update(content).digest()))),
    ];
    // The signature covers the attributes DER-encoded as a SET OF (tag 0x31), members in ascending byte order.
    const encoded = signedAttrs
      .map((item) => Buffer.from(AsnConvert.serialize(item)))
      .sort((a, b) => Buffer.compare(a, b));
    const signedBytes = Buffer.concat([
      derHeader(
        0x31,
        encoded.reduce((sum, item) => sum + item.length, 0),
      ),
      ...encoded,
    ]);
    const tbsCertificate = this.certificate;
    const signerInfo = new SignerInfo({
      version: CMSVersion.v1,
      sid: new SignerIdentifier({
        issuerAndSerialNumber: new IssuerAndSerialNumber({
          issuer: tbsCertificate.issuer,
          serialNumber: tbsCertificate.serialNumber,
        }),
      }),
      digestAlgorithm,
      signatureAlgorithm: new SignatureAlgorithmIdentifier({ algorithm: sha256WithRsaOid, parameters: null }),
      signature: new OctetString(sign('sha256', signedBytes, this.privateKey)),
      signedAttrs,
    });
    const signedData = new SignedData({
      version: CMSVersion.v1,
      digestAlgorithms: new DigestAlgorithmIdentifiers([digestAlgorithm]),
      encapContentInfo: new EncapsulatedContentInfo({
        eContentType: id_data,
        eContent: new EncapsulatedContent({ single: new OctetString(content) }),
      }),
      signerInfos: new SignerInfos([signerInfo]),
    });
    const info = new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) });
    return Buffer.from(AsnConvert.serialize(info)).toString('base64');
  }
}

/** The id-data object identifier, DER-encoded: the content-type attribute's value. */
const idDataDer = toArrayBuffer(Buffer.from('06092a864886f70d010701', 'hex'));

function derHeader(tag: number, length: number): Buffer {
  if (length < 0x80) return Buffer.from([tag, length]);
  if (length < 0x100) return Buffer.from([tag, 0x81, length]);
  return Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
}
