import { InvalidRequest } from '../../lib/errors.js';
import { BerCursor, BerError, derFramed, encodeElement, objectIdentifierContent, objectIdentifierText } from './ber.js';

/**
 * Reads a CMS ContentInfo holding a SignedData (RFC 5652) down to what verifying its one signer needs, in one walk of
 * a BerCursor that checks the whole encoding on the way (elements it does not read, such as embedded certificates, are
 * walked through). A schema parser (asn1-schema) did this before at twenty times the cost of the signature check
 * itself (see docs/performance.md). Structural faults throw BerError; the caller reports them as a malformed document.
 */

/** The OBJECT IDENTIFIERs named in documents, so that reading one costs a comparison rather than a decoding. */
const KNOWN = [
  '1.3.14.3.2.26', // sha1
  '2.16.840.1.101.3.4.2.1', // sha256
  '1.2.840.113549.1.1.1', // rsaEncryption
  '1.2.840.113549.1.1.5', // sha1WithRSAEncryption
  '1.2.840.113549.1.1.11', // sha256WithRSAEncryption
  '1.2.840.10040.4.3', // dsa-with-sha1
].map((text) => ({ text, content: objectIdentifierContent(text) }));

/** The content octets of id-data, the only content type this verifier accepts. */
export const ID_DATA = objectIdentifierContent('1.2.840.113549.1.7.1');
const SIGNED_DATA = objectIdentifierContent('1.2.840.113549.1.7.2');

/** The signed attributes this verifier reads, in the order of SignedAttributeValues' fields. */
const ATTRIBUTE_TYPES = [
  objectIdentifierContent('1.2.840.113549.1.9.3'), // contentType
  objectIdentifierContent('1.2.840.113549.1.9.4'), // messageDigest
  objectIdentifierContent('1.2.840.113549.1.9.5'), // signingTime
  objectIdentifierContent('1.2.840.113549.1.9.52'), // CMSAlgorithmProtection
];

/**
 * The encoding of an attribute's one value, as received: undefined when the attribute is absent, null when it occurs
 * more than once or without exactly one value (RFC 5652 §11 forbids both).
 */
export type AttributeValue = Uint8Array | null | undefined;

export interface SignedAttributes {
  contentType: AttributeValue;
  messageDigest: AttributeValue;
  signingTime: AttributeValue;
  algorithmProtection: AttributeValue;
  /** The DER SET OF the attributes, which the signature covers (RFC 5652 §5.4). */
  der: Uint8Array;
}

/** A SignerInfo (RFC 5652 §5.3). */
export interface Signer {
  /** DER of the issuer Name and the serial number's INTEGER content octets (absent for a subjectKeyIdentifier). */
  issuer?: Uint8Array;
  serialNumber?: Uint8Array;
  digestAlgorithm: string;
  signatureAlgorithm: string;
  signedAttributes?: SignedAttributes;
  signature: Uint8Array;
}

/**
 * The attached content and the one signer of a SignedData. `der` is the caller's own copy: the signed attributes'
 * [0] tag is overwritten with the SET tag their signature covers, so that they are verified where they lie.
 */
export function readSignedData(der: Buffer): { content: Buffer; signer: Signer } {
  const cursor = new BerCursor(der);
  const contentInfo = cursor.enter(0x30, 'ContentInfo');
  expectMore(cursor, contentInfo, 'ContentInfo');
  cursor.objectIdentifier('ContentInfo contentType');
  if (!cursor.objectIdentifierIs(SIGNED_DATA)) throw new BerError(`content type ${lastOid(cursor)} is not signedData`);
  expectMore(cursor, contentInfo, 'ContentInfo');
  const wrapped = cursor.enter(0xa0, 'ContentInfo content');
  expectMore(cursor, wrapped, 'ContentInfo content');
  const signedData = readSignedDataFields(cursor);
  cursor.leave(wrapped, 'ContentInfo content');
  cursor.leave(contentInfo, 'ContentInfo');
  if (cursor.position !== der.length) throw new BerError('trailing bytes after the signature');
  return signedData;
}

/** Throws unless the element entered with `end` holds another child. */
function expectMore(cursor: BerCursor, end: number, what: string): void {
  if (!cursor.more(end)) throw new BerError(`${what}: missing fields`);
}

/** The text of the OBJECT IDENTIFIER just read. */
function lastOid(cursor: BerCursor): string {
  for (const known of KNOWN) if (cursor.objectIdentifierIs(known.content)) return known.text;
  return objectIdentifierText(cursor.bytes, cursor.contentStart, cursor.position);
}

function readSignedDataFields(cursor: BerCursor): { content: Buffer; signer: Signer } {
  const end = cursor.enter(0x30, 'SignedData');
  expectMore(cursor, end, 'SignedData');
  cursor.primitive(0x02, 'SignedData version');
  expectMore(cursor, end, 'SignedData');
  const algorithms = cursor.enter(0x31, 'SignedData digestAlgorithms');
  while (cursor.more(algorithms)) readAlgorithm(cursor, 'digestAlgorithms');
  cursor.leave(algorithms, 'SignedData digestAlgorithms');
  expectMore(cursor, end, 'SignedData');
  const content = encapsulatedContent(cursor);
  // Between the content and the signers only the (ignored) certificates [0] and CRLs [1] may come.
  for (expectMore(cursor, end, 'SignedData'); cursor.peek() !== 0x31; expectMore(cursor, end, 'SignedData')) {
    if (cursor.tag !== 0xa0 && cursor.tag !== 0xa1) throw new BerError('unexpected element in SignedData');
    cursor.skip();
  }
  const signers = cursor.enter(0x31, 'SignerInfos');
  if (!cursor.more(signers)) throw new BerError('expected exactly one signer');
  const signer = readSigner(cursor);
  if (cursor.more(signers)) throw new BerError('expected exactly one signer');
  cursor.leave(signers, 'SignerInfos');
  cursor.leave(end, 'SignedData');
  return { content, signer };
}

function encapsulatedContent(cursor: BerCursor): Buffer {
  const end = cursor.enter(0x30, 'EncapsulatedContentInfo');
  expectMore(cursor, end, 'EncapsulatedContentInfo');
  cursor.objectIdentifier('eContentType');
  if (!cursor.objectIdentifierIs(ID_DATA))
    throw new BerError(`encapsulated content type ${lastOid(cursor)} is not data`);
  let content: Uint8Array | undefined;
  if (cursor.more(end)) {
    const explicit = cursor.enter(0xa0, 'eContent');
    expectMore(cursor, explicit, 'eContent');
    // The metadata service sends a BER constructed OCTET STRING, whose chunks make the content.
    content = cursor.octetString('eContent');
    cursor.leave(explicit, 'eContent');
  }
  // Nothing may follow the one content: a second one is a document another reader could take for the signed one.
  cursor.leave(end, 'EncapsulatedContentInfo');
  if (!content || content.length === 0)
    throw new InvalidRequest('instance identity document could not be found in the signature');
  return Buffer.from(content.buffer, content.byteOffset, content.length);
}

/**
 * Reads an AlgorithmIdentifier (whose tag may be implicit) and answers its OBJECT IDENTIFIER. Every digest and
 * signature algorithm a document may name has its parameters absent or NULL (RFC 3370 §2-3, RFC 5754 §2-3): anything
 * else is refused, even where the signature does not cover it, so no part of a document is left unread.
 */
export function readAlgorithm(cursor: BerCursor, what: string, tag = 0x30): string {
  const end = cursor.enter(tag, what);
  expectMore(cursor, end, what);
  cursor.objectIdentifier(what);
  const algorithm = lastOid(cursor);
  if (cursor.more(end) && cursor.primitive(0x05, `${what} parameters`) !== cursor.contentStart) {
    throw new BerError(`${what} parameters: NULL with content`);
  }
  cursor.leave(end, what);
  return algorithm;
}

function readSigner(cursor: BerCursor): Signer {
  const end = cursor.enter(0x30, 'SignerInfo');
  expectMore(cursor, end, 'SignerInfo');
  cursor.primitive(0x02, 'SignerInfo version');
  expectMore(cursor, end, 'SignerInfo');
  let issuer: Uint8Array | undefined;
  let serialNumber: Uint8Array | undefined;
  if (cursor.peek() === 0x80) {
    cursor.skip();
  } else {
    const sid = cursor.enter(0x30, 'IssuerAndSerialNumber');
    expectMore(cursor, sid, 'IssuerAndSerialNumber');
    issuer = readName(cursor);
    expectMore(cursor, sid, 'IssuerAndSerialNumber');
    const serialEnd = cursor.primitive(0x02, 'serialNumber');
    serialNumber = cursor.view(cursor.contentStart, serialEnd);
    cursor.leave(sid, 'IssuerAndSerialNumber');
  }
  expectMore(cursor, end, 'SignerInfo');
  const digestAlgorithm = readAlgorithm(cursor, 'digestAlgorithm');
  expectMore(cursor, end, 'SignerInfo');
  const signedAttributes = cursor.peek() === 0xa0 ? readSignedAttributes(cursor) : undefined;
  expectMore(cursor, end, 'SignerInfo');
  const signatureAlgorithm = readAlgorithm(cursor, 'signatureAlgorithm');
  if (!cursor.more(end)) throw new BerError('SignerInfo: missing signature');
  const signature = cursor.octetString('signature');
  if (cursor.more(end) && cursor.peek() === 0xa1) cursor.skip();
  cursor.leave(end, 'SignerInfo');
  return { issuer, serialNumber, digestAlgorithm, signatureAlgorithm, signedAttributes, signature };
}

/**
 * Reads a Name, a SEQUENCE OF RelativeDistinguishedName, each a non-empty SET OF SEQUENCE { type OID, value }, and
 * answers its DER: the bytes as received when their framing is DER already (every document seen), else re-framed.
 */
export function readName(cursor: BerCursor): Uint8Array {
  const start = cursor.position;
  cursor.der = true;
  const name = cursor.enter(0x30, 'issuer');
  while (cursor.more(name)) {
    const relative = cursor.enter(0x31, 'issuer RDN');
    expectMore(cursor, relative, 'issuer RDN');
    while (cursor.more(relative)) {
      const pair = cursor.enter(0x30, 'issuer attribute');
      expectMore(cursor, pair, 'issuer attribute');
      cursor.objectIdentifier('issuer attribute type');
      expectMore(cursor, pair, 'issuer attribute');
      cursor.skip();
      cursor.leave(pair, 'issuer attribute');
    }
    cursor.leave(relative, 'issuer RDN');
  }
  cursor.leave(name, 'issuer');
  return cursor.der
    ? cursor.view(start, cursor.position)
    : (derFramed(cursor.bytes, start, cursor.position)[0] as Buffer);
}

/** The index in ATTRIBUTE_TYPES of the attribute type just read, or -1. */
function attributeSlot(cursor: BerCursor): number {
  for (let slot = 0; slot < ATTRIBUTE_TYPES.length; slot++)
    if (cursor.objectIdentifierIs(ATTRIBUTE_TYPES[slot] as Uint8Array)) return slot;
  return -1;
}

function readSignedAttributes(cursor: BerCursor): SignedAttributes {
  const start = cursor.position;
  cursor.der = true;
  const end = cursor.enter(0xa0, 'signed attributes');
  const headerIsDer = cursor.der;
  const contentStart = cursor.position;
  cursor.der = true;
  const values: AttributeValue[] = [undefined, undefined, undefined, undefined];
  while (cursor.more(end)) {
    const attribute = cursor.enter(0x30, 'Attribute');
    expectMore(cursor, attribute, 'Attribute');
    cursor.objectIdentifier('Attribute type');
    const slot = attributeSlot(cursor);
    expectMore(cursor, attribute, 'Attribute');
    const set = cursor.enter(0x31, 'Attribute values');
    const valueStart = cursor.position;
    let count = 0;
    for (; cursor.more(set); count++) cursor.skip();
    if (slot >= 0)
      values[slot] = values[slot] !== undefined || count !== 1 ? null : cursor.view(valueStart, cursor.position);
    cursor.leave(set, 'Attribute values');
    cursor.leave(attribute, 'Attribute');
  }
  const contentEnd = cursor.position;
  const contentIsDer = cursor.der;
  cursor.leave(end, 'signed attributes');
  const [contentType, messageDigest, signingTime, algorithmProtection] = values;
  return {
    contentType,
    messageDigest,
    signingTime,
    algorithmProtection,
    der: signedSet(cursor, start, contentStart, contentEnd, headerIsDer, contentIsDer),
  };
}

/**
 * The DER SET OF the signed attributes that the signature covers: in every genuine document the [0] element is DER
 * already, and retagging it in place spares a copy; otherwise it is re-encoded with definite lengths.
 */
function signedSet(
  cursor: BerCursor,
  start: number,
  contentStart: number,
  contentEnd: number,
  headerIsDer: boolean,
  contentIsDer: boolean,
): Uint8Array {
  const der = cursor.bytes;
  if (!contentIsDer) return encodeElement(0x31, derFramed(der, contentStart, contentEnd));
  if (!headerIsDer) return encodeElement(0x31, [cursor.view(contentStart, contentEnd)]);
  der[start] = 0x31;
  return cursor.view(start, contentEnd);
}
