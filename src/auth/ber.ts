/**
 * A minimal BER reader (X.690): enough to check a whole encoding's structure, walk it element by element, and
 * re-encode parts of it with definite lengths (DER framing). Failures throw BerError.
 */
export class BerError extends Error {}

export interface BerElement {
  /** The first identifier octet (class, constructed bit and low tag number). */
  tag: number;
  /** Where the identifier octets start. */
  start: number;
  contentStart: number;
  /** End of the content; for an indefinite length, where its end-of-contents octets start. */
  contentEnd: number;
  /** End of the whole element. */
  end: number;
  /** A one-octet identifier and a definite length in the fewest octets: the header as DER writes it. */
  derHeader: boolean;
}

const MAX_DEPTH = 32;

function byteAt(bytes: Uint8Array, index: number): number {
  const value = bytes[index];
  if (value === undefined) throw new BerError('truncated data');
  return value;
}

/**
 * The header last read by readHeader. Walks are synchronous and read every field right after the call, so one shared
 * record serves them all: a login document has some sixty elements, and an object per element was a measurable part
 * of verifying it.
 */
const header = { tag: 0, contentStart: 0, /** -1 for an indefinite length */ length: 0, derHeader: false };

function readHeader(bytes: Uint8Array, offset: number): void {
  let position = offset;
  const tag = byteAt(bytes, position++);
  const highTag = (tag & 0x1f) === 0x1f;
  if (highTag) {
    for (let count = 1; byteAt(bytes, position++) & 0x80; count++) if (count >= 4) throw new BerError('tag number too large');
  }
  const first = byteAt(bytes, position++);
  let length = first;
  let minimal = !highTag;
  if (first === 0x80) {
    if (!(tag & 0x20)) throw new BerError('indefinite length on a primitive element');
    length = -1;
    minimal = false;
  } else if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 4) throw new BerError('length too large');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + byteAt(bytes, position++);
    minimal &&= length >= 0x80 && length >= 256 ** (count - 1);
  }
  if (position + length > bytes.length) throw new BerError('truncated data');
  header.tag = tag;
  header.contentStart = position;
  header.length = length;
  header.derHeader = minimal;
}

/** The end of the element at `offset`; `deep` also walks inside definite-length elements (indefinite ones always). */
function endOf(bytes: Uint8Array, offset: number, depth: number, deep: boolean): number {
  if (depth > MAX_DEPTH) throw new BerError('nesting too deep');
  readHeader(bytes, offset);
  const { tag, contentStart, length } = header;
  if (length < 0) {
    let position = contentStart;
    while (byteAt(bytes, position) !== 0 || byteAt(bytes, position + 1) !== 0) position = endOf(bytes, position, depth + 1, deep);
    return position + 2;
  }
  const end = contentStart + length;
  if (tag & 0x20 && deep) {
    let child = contentStart;
    while (child < end) child = endOf(bytes, child, depth + 1, deep);
    if (child !== end) throw new BerError('element overruns its parent');
  }
  return end;
}

function element(bytes: Uint8Array, offset: number, depth: number, deep: boolean): BerElement {
  if (depth > MAX_DEPTH) throw new BerError('nesting too deep');
  readHeader(bytes, offset);
  const { tag, contentStart, length, derHeader } = header;
  // Only an indefinite length, or a deep walk of a constructed element, needs to look inside.
  const end = length >= 0 && !(deep && tag & 0x20) ? contentStart + length : endOf(bytes, offset, depth, deep);
  return { tag, start: offset, contentStart, contentEnd: length < 0 ? end - 2 : end, end, derHeader };
}

/**
 * Reads the element at `offset` and walks everything inside it (definite and indefinite lengths alike), so that any
 * truncation, overrun or excessive nesting is found here rather than deep inside a parser.
 */
export function readElement(bytes: Uint8Array, offset: number, depth = 0): BerElement {
  return element(bytes, offset, depth, true);
}

/**
 * The elements directly inside a constructed element, reading only their headers: call it on encodings that
 * readElement has checked, so that walking a structure level by level costs its size once, not once per level.
 */
export function childrenOf(bytes: Uint8Array, parent: BerElement): BerElement[] {
  const children: BerElement[] = [];
  for (let position = parent.contentStart; position < parent.contentEnd; ) {
    const child = element(bytes, position, 0, false);
    children.push(child);
    position = child.end;
  }
  if (children.length > 0 && children[children.length - 1]!.end !== parent.contentEnd) throw new BerError('element overruns its parent');
  return children;
}

/** The content chunks of an OCTET STRING, primitive (one chunk) or constructed (its segments, in order). */
export function octetStringChunks(bytes: Uint8Array, element: BerElement, depth = 0): Uint8Array[] {
  if (element.tag === 0x04) return [bytes.subarray(element.contentStart, element.contentEnd)];
  if (element.tag !== 0x24) throw new BerError('not an OCTET STRING');
  const chunks: Uint8Array[] = [];
  for (let position = element.contentStart; position < element.contentEnd; ) {
    const child = readElement(bytes, position, depth + 1);
    chunks.push(...octetStringChunks(bytes, child, depth + 1));
    position = child.end;
  }
  return chunks;
}

/** The content of an OCTET STRING, primitive (not copied) or constructed (its chunks joined). */
export function octetString(bytes: Uint8Array, element: BerElement): Buffer {
  const chunks = octetStringChunks(bytes, element);
  const [only] = chunks;
  return chunks.length === 1 && only ? Buffer.from(only.buffer, only.byteOffset, only.byteLength) : Buffer.concat(chunks);
}

/** An element with the given identifier (one octet, or the octets as read) and a definite minimal length. */
export function encodeElement(identifier: number | Uint8Array, content: readonly Uint8Array[]): Buffer {
  const length = content.reduce((sum, part) => sum + part.length, 0);
  const lengthOctets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) lengthOctets.unshift(rest % 256);
  const header = Buffer.from(length < 0x80 ? [length] : [0x80 | lengthOctets.length, ...lengthOctets]);
  return Buffer.concat([typeof identifier === 'number' ? Buffer.from([identifier]) : identifier, header, ...content]);
}

/** The end of the element at `offset` if it has DER framing throughout (one-octet identifiers, minimal lengths), else -1. */
function derFramedEnd(bytes: Uint8Array, offset: number, depth: number): number {
  if (depth > MAX_DEPTH) throw new BerError('nesting too deep');
  readHeader(bytes, offset);
  const { tag, contentStart, length, derHeader } = header;
  if (!derHeader) return -1;
  const end = contentStart + length;
  if (!(tag & 0x20)) return end;
  let child = contentStart;
  while (child >= 0 && child < end) child = derFramedEnd(bytes, child, depth + 1);
  return child === end ? end : -1;
}

function derFramed(bytes: Uint8Array, element: BerElement): boolean {
  return derFramedEnd(bytes, element.start, 0) === element.end;
}

/**
 * The element with DER framing throughout, contents unchanged: its own bytes when they already are (the common case,
 * no copy), else re-encoded with definite lengths.
 */
export function derFraming(bytes: Uint8Array, element: BerElement): Uint8Array {
  if (derFramed(bytes, element)) return bytes.subarray(element.start, element.end);
  let identifierEnd = element.start + 1;
  if ((element.tag & 0x1f) === 0x1f) while ((bytes[identifierEnd++] as number) & 0x80);
  const identifier = bytes.subarray(element.start, identifierEnd);
  if (!(element.tag & 0x20)) return encodeElement(identifier, [bytes.subarray(element.contentStart, element.contentEnd)]);
  return encodeElement(identifier, childrenOf(bytes, element).map((child) => derFraming(bytes, child)));
}

/** The dotted text of an OBJECT IDENTIFIER element (tag 0x06). */
export function objectIdentifier(bytes: Uint8Array, element: BerElement): string {
  if (element.tag !== 0x06) throw new BerError('not an OBJECT IDENTIFIER');
  const { contentStart, contentEnd } = element;
  if (contentEnd === contentStart || (bytes[contentEnd - 1] as number) & 0x80) throw new BerError('invalid OBJECT IDENTIFIER');
  let text = '';
  let value = 0;
  for (let index = contentStart; index < contentEnd; index++) {
    const octet = bytes[index] as number;
    // Arcs beyond 2^53 are legal but rare enough to take the slow path.
    if (value >= 2 ** 45) return bigObjectIdentifier(bytes, element);
    value = value * 128 + (octet & 0x7f);
    if (octet & 0x80) continue;
    if (text === '') {
      const top = value < 40 ? 0 : value < 80 ? 1 : 2;
      text = `${top}.${value - top * 40}`;
    } else {
      text += `.${value}`;
    }
    value = 0;
  }
  return text;
}

function bigObjectIdentifier(bytes: Uint8Array, element: BerElement): string {
  const arcs: bigint[] = [];
  let value = 0n;
  for (let index = element.contentStart; index < element.contentEnd; index++) {
    const octet = bytes[index] as number;
    value = (value << 7n) | BigInt(octet & 0x7f);
    if (octet & 0x80) continue;
    arcs.push(value);
    value = 0n;
  }
  const first = arcs[0] as bigint;
  const top = first < 40n ? 0n : first < 80n ? 1n : 2n;
  return [top, first - top * 40n, ...arcs.slice(1)].join('.');
}
