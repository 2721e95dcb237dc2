import { InvalidRequest } from '../core/errors.js';
import { type BerElement, BerError, childrenOf, derFraming, encodeElement, objectIdentifier, octetString, readElement } from './ber.js';

/**
 * Reads a CMS ContentInfo holding a SignedData (RFC 5652) with the BER walker, down to what verifying its one signer
 * needs. A schema parser (asn1-schema) did this before at twenty times the cost of the signature check itself (see
 * docs/performance.md). Structural faults throw BerError; the caller reports them as a malformed document.
 */

const OID_DATA = '1.2.840.113549.1.7.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';

/** A signed attribute: its type and the encodings of its values, as received. */
export interface SignedAttribute {
  type: string;
  values: Buffer[];
}

/** A SignerInfo (RFC 5652 §5.3). */
export interface Signer {
  /** DER of the issuer Name and the serial number's INTEGER content octets (absent for a subjectKeyIdentifier). */
  issuer?: Uint8Array;
  serialNumber?: Uint8Array;
  digestAlgorithm: string;
  signatureAlgorithm: string;
  /** The signed attributes, in the order received, and the DER SET OF them that the signature covers (§5.4). */
  signedAttributes?: { attributes: SignedAttribute[]; der: Buffer };
  signature: Buffer;
}

/** The attached content and the signers of a SignedData. */
export function readSignedData(der: Buffer): { content: Buffer; signers: Signer[] } {
  // The whole encoding is checked first (no truncation, no overrun, bounded nesting); each element is then read once.
  const root = readElement(der, 0);
  if (root.end !== der.length) throw new BerError('trailing bytes after the signature');
  const [contentType, wrapped] = fields(der, root, 0x30, 'ContentInfo', 2) as [BerElement, BerElement];
  const type = objectIdentifier(der, contentType);
  if (type !== OID_SIGNED_DATA) throw new BerError(`content type ${type} is not signedData`);
  const [signedData] = fields(der, wrapped, 0xa0, 'ContentInfo content', 1) as [BerElement];
  const parts = fields(der, signedData, 0x30, 'SignedData', 4);
  expectTag(parts[0] as BerElement, 0x02, 'SignedData version');
  for (const algorithm of fields(der, parts[1] as BerElement, 0x31, 'SignedData digestAlgorithms', 0)) algorithmOf(der, algorithm, 'digestAlgorithms');
  // Between the content and the signers only the (ignored) certificates [0] and CRLs [1] may come.
  if (parts.slice(3, -1).some((part) => part.tag !== 0xa0 && part.tag !== 0xa1)) throw new BerError('unexpected element in SignedData');
  const content = encapsulatedContent(der, parts[2] as BerElement);
  const signerInfos = fields(der, parts[parts.length - 1] as BerElement, 0x31, 'SignerInfos', 0);
  return { content, signers: signerInfos.map((signer) => readSigner(der, signer)) };
}

function expectTag(element: BerElement, tag: number, what: string): void {
  if (element.tag !== tag) throw new BerError(`${what}: unexpected tag 0x${element.tag.toString(16)}`);
}

/** The children of an element with the given tag, at least `minimum` of them. */
function fields(der: Buffer, element: BerElement, tag: number, what: string, minimum: number): BerElement[] {
  expectTag(element, tag, what);
  const children = childrenOf(der, element);
  if (children.length < minimum) throw new BerError(`${what}: missing fields`);
  return children;
}

function encapsulatedContent(der: Buffer, info: BerElement): Buffer {
  const [contentType, explicit] = fields(der, info, 0x30, 'EncapsulatedContentInfo', 1) as [BerElement, BerElement | undefined];
  const type = objectIdentifier(der, contentType);
  if (type !== OID_DATA) throw new BerError(`encapsulated content type ${type} is not data`);
  // The metadata service sends a BER constructed OCTET STRING, whose chunks make the content.
  const octets = explicit && fields(der, explicit, 0xa0, 'eContent', 1)[0];
  const content = octets && octetString(der, octets);
  if (!content || content.length === 0) throw new InvalidRequest('instance identity document could not be found in the signature');
  return content;
}

/** The OBJECT IDENTIFIER of an AlgorithmIdentifier (whose tag may be implicit). */
export function algorithmOf(der: Buffer, element: BerElement, what: string, tag = 0x30): string {
  return objectIdentifier(der, fields(der, element, tag, what, 1)[0] as BerElement);
}

function readSigner(der: Buffer, info: BerElement): Signer {
  const parts = fields(der, info, 0x30, 'SignerInfo', 5);
  expectTag(parts[0] as BerElement, 0x02, 'SignerInfo version');
  const sid = parts[1] as BerElement;
  let issuer: Uint8Array | undefined;
  let serialNumber: Uint8Array | undefined;
  if (sid.tag !== 0x80) {
    const [name, serial] = fields(der, sid, 0x30, 'IssuerAndSerialNumber', 2) as [BerElement, BerElement];
    checkName(der, name);
    expectTag(serial, 0x02, 'serialNumber');
    issuer = derFraming(der, name);
    serialNumber = der.subarray(serial.contentStart, serial.contentEnd);
  }
  const digestAlgorithm = algorithmOf(der, parts[2] as BerElement, 'digestAlgorithm');
  let next = 3;
  const signedAttributes = parts[next]?.tag === 0xa0 ? readSignedAttributes(der, parts[next++] as BerElement) : undefined;
  const signatureAlgorithm = algorithmOf(der, parts[next++] as BerElement, 'signatureAlgorithm');
  const signature = parts[next++];
  if (!signature) throw new BerError('SignerInfo: missing signature');
  if (parts.length > next + 1 || (parts[next] && parts[next]?.tag !== 0xa1)) throw new BerError('unexpected element in SignerInfo');
  return { issuer, serialNumber, digestAlgorithm, signatureAlgorithm, signedAttributes, signature: octetString(der, signature) };
}

/** A Name is a SEQUENCE OF RelativeDistinguishedName, each a non-empty SET OF SEQUENCE { type OID, value }. */
function checkName(der: Buffer, name: BerElement): void {
  for (const relative of fields(der, name, 0x30, 'issuer', 0)) {
    for (const pair of fields(der, relative, 0x31, 'issuer RDN', 1)) objectIdentifier(der, fields(der, pair, 0x30, 'issuer attribute', 2)[0] as BerElement);
  }
}

function readSignedAttributes(der: Buffer, set: BerElement): { attributes: SignedAttribute[]; der: Buffer } {
  let framed = true;
  const types: BerElement[] = [];
  const attributes = childrenOf(der, set).map((attribute) => {
    const [type, values] = fields(der, attribute, 0x30, 'Attribute', 2) as [BerElement, BerElement];
    framed &&= attribute.derHeader && values.derHeader;
    types.push(type);
    return { type: objectIdentifier(der, type), values: fields(der, values, 0x31, 'Attribute values', 0).map((value) => der.subarray(value.start, value.end)) };
  });
  // The signature covers a DER SET of the attributes (types and values as received): the [0] content itself when its
  // framing is DER already, as it is in every document seen.
  const typeOf = (index: number) => der.subarray(types[index]?.start, types[index]?.end);
  const content = framed
    ? [der.subarray(set.contentStart, set.contentEnd)]
    : attributes.map((attribute, index) => encodeElement(0x30, [typeOf(index), encodeElement(0x31, attribute.values)]));
  return { attributes, der: encodeElement(0x31, content) };
}
