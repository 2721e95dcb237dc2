/**
 * A minimal BER reader (X.690): a cursor that walks an encoding element by element, checking its structure as it
 * goes, and a re-encoder of parts of it with definite lengths (DER framing). Failures throw BerError.
 */
export class BerError extends Error {}

const MAX_DEPTH = 32;

/** The length of an element of indefinite length (found at its end-of-contents octets), and what `enter` answers. */
const INDEFINITE = -1;

function byteAt(bytes: Uint8Array, index: number): number {
  const value = bytes[index];
  if (value === undefined) throw new BerError('truncated data');
  return value;
}

/**
 * A forward-only walk over one encoding that allocates nothing per element: a login document has some sixty
 * elements, and an object per element was a measurable part of verifying it (see docs/performance.md). `peek` reads
 * the next element's header into the fields below; the caller then enters it, skips it or reads it as primitive.
 * Every element is either entered (and left, which checks that its children fill it exactly) or skipped (which walks
 * everything inside it), so a whole walk checks the whole encoding: no truncation, no overrun, bounded nesting.
 */
export class BerCursor {
  /** Where the next element starts. */
  position = 0;
  /** Header of the element last peeked: first identifier octet, where it starts, where its content starts. */
  tag = 0;
  start = 0;
  contentStart = 0;
  /** Content length, INDEFINITE for an indefinite length. */
  length = 0;
  /** Whether every header read since `der` was last set was written as DER writes it. */
  der = true;
  private depth = 0;

  constructor(readonly bytes: Uint8Array) {}

  /** Reads the header of the next element; answers its tag. */
  peek(): number {
    const bytes = this.bytes;
    let position = this.position;
    const tag = byteAt(bytes, position++);
    const highTag = (tag & 0x1f) === 0x1f;
    if (highTag) {
      for (let count = 1; byteAt(bytes, position++) & 0x80; count++)
        if (count >= 4) throw new BerError('tag number too large');
    }
    const first = byteAt(bytes, position++);
    let length = first;
    let minimal = !highTag;
    if (first === 0x80) {
      if (!(tag & 0x20)) throw new BerError('indefinite length on a primitive element');
      length = INDEFINITE;
      minimal = false;
    } else if (first & 0x80) {
      const count = first & 0x7f;
      if (count > 4) throw new BerError('length too large');
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + byteAt(bytes, position++);
      minimal &&= length >= 0x80 && length >= 256 ** (count - 1);
    }
    if (position + length > bytes.length) throw new BerError('truncated data');
    this.der &&= minimal;
    this.tag = tag;
    this.start = this.position;
    this.contentStart = position;
    this.length = length;
    return tag;
  }

  /** Steps into the next element, which must have this tag; answers its content end (or INDEFINITE) for `more`/`leave`. */
  enter(tag: number, what: string): number {
    if (this.peek() !== tag) throw unexpected(this.tag, what);
    if (++this.depth > MAX_DEPTH) throw new BerError('nesting too deep');
    this.position = this.contentStart;
    return this.length === INDEFINITE ? INDEFINITE : this.contentStart + this.length;
  }

  /** Whether the element entered with this `end` has another child. */
  more(end: number): boolean {
    if (end !== INDEFINITE) return this.position < end;
    return byteAt(this.bytes, this.position) !== 0 || byteAt(this.bytes, this.position + 1) !== 0;
  }

  /** Steps out of the element entered with this `end`, which must hold nothing more. */
  leave(end: number, what: string): void {
    if (this.more(end)) throw new BerError(`unexpected element in ${what}`);
    if (end === INDEFINITE) this.position += 2;
    else if (this.position !== end) throw new BerError('element overruns its parent');
    this.depth--;
  }

  /** Skips the next element, walking everything inside it; answers its end. */
  skip(): number {
    this.position = this.endOf(this.position, this.depth);
    return this.position;
  }

  /** Reads the next element, which must be primitive with this tag, and steps past it; answers its content end. */
  primitive(tag: number, what: string): number {
    if (this.peek() !== tag) throw unexpected(this.tag, what);
    this.position = this.contentStart + this.length;
    return this.position;
  }

  /** Reads the next element as an OBJECT IDENTIFIER and steps past it; its content is at contentStart..position. */
  objectIdentifier(what: string): void {
    const end = this.primitive(0x06, what);
    if (end === this.contentStart || (this.bytes[end - 1] as number) & 0x80)
      throw new BerError(`${what}: invalid OBJECT IDENTIFIER`);
  }

  /** Whether the OBJECT IDENTIFIER just read has these content octets. */
  objectIdentifierIs(content: Uint8Array): boolean {
    const start = this.contentStart;
    if (this.position - start !== content.length) return false;
    // From the end: identifiers of one family share all but their last arcs.
    for (let index = content.length - 1; index >= 0; index--)
      if (this.bytes[start + index] !== content[index]) return false;
    return true;
  }

  /**
   * A view of bytes `start` to `end` of the encoding, not a copy. A plain Uint8Array: a Buffer view (subarray of a
   * Buffer) costs several times as much to make, and a walk makes some ten of them.
   */
  view(start: number, end: number): Uint8Array {
    const bytes = this.bytes;
    return new Uint8Array(bytes.buffer, bytes.byteOffset + start, end - start);
  }

  /**
   * The next element as an OCTET STRING, primitive (a view of its content) or constructed (its segments joined), and
   * steps past it.
   */
  octetString(what: string): Uint8Array {
    if (this.peek() === 0x04) {
      this.position = this.contentStart + this.length;
      return this.view(this.contentStart, this.position);
    }
    const chunks: Uint8Array[] = [];
    this.segments(chunks, what);
    // The metadata service sends its content as one segment of a constructed OCTET STRING: no copy then either.
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
  }

  private segments(chunks: Uint8Array[], what: string): void {
    const end = this.enter(0x24, what);
    while (this.more(end)) {
      if (this.peek() !== 0x04) {
        this.segments(chunks, what);
        continue;
      }
      this.position = this.contentStart + this.length;
      chunks.push(this.view(this.contentStart, this.position));
    }
    this.leave(end, what);
  }

  private endOf(offset: number, depth: number): number {
    if (depth > MAX_DEPTH) throw new BerError('nesting too deep');
    this.position = offset;
    this.peek();
    const { tag, contentStart, length } = this;
    if (length === INDEFINITE) {
      let position = contentStart;
      while (byteAt(this.bytes, position) !== 0 || byteAt(this.bytes, position + 1) !== 0)
        position = this.endOf(position, depth + 1);
      return position + 2;
    }
    const end = contentStart + length;
    if (tag & 0x20) {
      let child = contentStart;
      while (child < end) child = this.endOf(child, depth + 1);
      if (child !== end) throw new BerError('element overruns its parent');
    }
    return end;
  }
}

function unexpected(tag: number, what: string): BerError {
  return new BerError(`${what}: unexpected tag 0x${tag.toString(16)}`);
}

/** An element with the given identifier (one octet, or the octets as read) and a definite minimal length. */
export function encodeElement(identifier: number | Uint8Array, content: readonly Uint8Array[]): Buffer {
  const length = content.reduce((sum, part) => sum + part.length, 0);
  const lengthOctets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) lengthOctets.unshift(rest % 256);
  const header = Buffer.from(length < 0x80 ? [length] : [0x80 | lengthOctets.length, ...lengthOctets]);
  return Buffer.concat([typeof identifier === 'number' ? Buffer.from([identifier]) : identifier, header, ...content]);
}

/**
 * The elements from `offset` to `end` of an encoding a walk has checked, each re-encoded with definite lengths
 * throughout, contents unchanged. For the rare document whose signed parts are not DER-framed already.
 */
export function derFramed(bytes: Uint8Array, offset: number, end: number): Buffer[] {
  const cursor = new BerCursor(bytes);
  const elements: Buffer[] = [];
  for (cursor.position = offset; cursor.position < end;) {
    cursor.peek();
    const { tag, start, contentStart, length } = cursor;
    let identifierEnd = start + 1;
    if ((tag & 0x1f) === 0x1f) while ((bytes[identifierEnd++] as number) & 0x80);
    const identifier = bytes.subarray(start, identifierEnd);
    const elementEnd = cursor.skip();
    const contentEnd = length === INDEFINITE ? elementEnd - 2 : contentStart + length;
    const content =
      tag & 0x20 ? derFramed(bytes, contentStart, contentEnd) : [bytes.subarray(contentStart, contentEnd)];
    elements.push(encodeElement(identifier, content));
  }
  return elements;
}

/** The content octets of the OBJECT IDENTIFIER with this dotted text (arcs below 2^53). */
export function objectIdentifierContent(text: string): Uint8Array {
  const [top = 0, second = 0, ...rest] = text.split('.').map(Number);
  const octets: number[] = [];
  for (const arc of [top * 40 + second, ...rest]) {
    const base128 = [arc % 128];
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128))
      base128.unshift(0x80 | (value % 128));
    octets.push(...base128);
  }
  return Uint8Array.from(octets);
}

/** The dotted text of an OBJECT IDENTIFIER's content octets (checked by BerCursor.objectIdentifier). */
export function objectIdentifierText(bytes: Uint8Array, start: number, end: number): string {
  const arcs: bigint[] = [];
  let value = 0n;
  for (let index = start; index < end; index++) {
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
