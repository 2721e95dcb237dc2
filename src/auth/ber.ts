/**
 * A minimal BER reader (X.690): enough to check a whole encoding's structure before a schema parser sees it, and to
 * reassemble a constructed OCTET STRING, which asn1-cms hands over raw. Failures throw BerError.
 */
export class BerError extends Error {}

export interface BerElement {
  /** The first identifier octet (class, constructed bit and low tag number). */
  tag: number;
  contentStart: number;
  /** End of the content; for an indefinite length, where its end-of-contents octets start. */
  contentEnd: number;
  /** End of the whole element. */
  end: number;
}

const MAX_DEPTH = 32;

/**
 * Reads the element at `offset` and walks everything inside it (definite and indefinite lengths alike), so that any
 * truncation, overrun or excessive nesting is found here rather than deep inside a parser.
 */
export function readElement(bytes: Uint8Array, offset: number, depth = 0): BerElement {
  if (depth > MAX_DEPTH) throw new BerError('nesting too deep');
  const byteAt = (index: number): number => {
    const value = bytes[index];
    if (value === undefined) throw new BerError('truncated data');
    return value;
  };
  let position = offset;
  const tag = byteAt(position++);
  const constructed = (tag & 0x20) !== 0;
  if ((tag & 0x1f) === 0x1f) {
    for (let count = 1; byteAt(position++) & 0x80; count++) if (count >= 4) throw new BerError('tag number too large');
  }
  const first = byteAt(position++);
  if (first === 0x80) {
    if (!constructed) throw new BerError('indefinite length on a primitive element');
    const contentStart = position;
    while (byteAt(position) !== 0 || byteAt(position + 1) !== 0) position = readElement(bytes, position, depth + 1).end;
    return { tag, contentStart, contentEnd: position, end: position + 2 };
  }
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 4) throw new BerError('length too large');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + byteAt(position++);
  }
  const end = position + length;
  if (end > bytes.length) throw new BerError('truncated data');
  if (constructed) {
    let child = position;
    while (child < end) child = readElement(bytes, child, depth + 1).end;
    if (child !== end) throw new BerError('element overruns its parent');
  }
  return { tag, contentStart: position, contentEnd: end, end };
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
