// A header (or trailer) section read the strict way node:http's parser reads it (llhttp with no lenient flags, Node's
// default): every line ends in CRLF, names are tokens followed at once by ':', values hold no control character but
// HTAB. Whatever the parser might take differently (a bare LF, a bare CR, obs-fold, whitespace before the colon, a
// NUL) is refused rather than guessed at: the LIST shim may only go on where it reads the stream exactly as node:http.

export const CR = 0x0d;
export const LF = 0x0a;
export const SP = 0x20;
export const HTAB = 0x09;
const COLON = 0x3a;
const DEL = 0x7f;

// RFC 9110 §5.6.2: tchar, as a table by byte (every byte of every head is looked up).
const TCHARS = new Uint8Array(256);
for (const byte of Buffer.from("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
  TCHARS[byte] = 1;
/** Each tchar as the lower-case one-character string a field name is compared by. */
const LOWER = Array.from({ length: 256 }, (_, byte) => String.fromCharCode(byte).toLowerCase());

export const isTchar = (byte: number): boolean => TCHARS[byte] === 1;

/** VCHAR or obs-text: what a request target is made of. */
export const isVisible = (byte: number): boolean => byte > SP && byte !== DEL;

/** HTAB, SP, VCHAR or obs-text: what a field value or a chunk extension is made of. */
export const isFieldByte = (byte: number): boolean => byte === HTAB || (byte >= SP && byte !== DEL);

/**
 * A framing header's value is kept whole, up to this many bytes; a longer one is refused (a Content-Length padded
 * with thousands of zeros, a Transfer-Encoding padded with spaces), where a cut value would be read otherwise.
 */
const MAX_FRAMING_VALUE_BYTES = 256;

/** A reason the stream is refused; the shim's caller is answered 400 and the connection closed. */
export type Refusal = string;

type LineState = 'start' | 'name' | 'value' | 'cr' | 'end';

/**
 * Follows one field section up to its empty line. `watched` names the fields whose values matter (lower case);
 * `onField` sees each of them once its line is complete, and answers a refusal or nothing.
 */
export class FieldSection {
  private state: LineState = 'start';
  private name = '';
  /** The value of a watched field, as it arrives; undefined while in a field that is not watched. */
  private value: string | undefined;
  // A name is kept up to one character longer than the longest watched name: enough to tell it is none of them.
  private readonly longest: number;
  /** Set once the empty line that ends the section has been read. */
  done = false;
  refusal: Refusal | undefined;

  constructor(
    private readonly watched: ReadonlySet<string>,
    private readonly onField: (name: string, value: string) => Refusal | undefined,
  ) {
    this.longest = Math.max(...[...watched].map((name) => name.length));
  }

  /**
   * Reads from `data[start]` on; answers the index after the last byte read. It stops after the empty line (`done`)
   * or on the first byte it refuses (`refusal`), which is not counted as read.
   */
  feed(data: Buffer, start: number): number {
    let index = start;
    while (index < data.length && !this.done) {
      // The value of a field that is not watched only has to be made of field bytes: passed over in one sweep.
      if (this.state === 'value' && this.value === undefined) {
        while (index < data.length && isFieldByte(data[index] as number)) index++;
        if (index === data.length) break;
      }
      this.refusal = this.step(data[index] as number);
      if (this.refusal !== undefined) break;
      index++;
    }
    return index;
  }

  private step(byte: number): Refusal | undefined {
    if (this.state === 'cr' || this.state === 'end') return this.afterCr(byte);
    if (byte === LF) return 'a header line ended by a bare LF';
    // A CR ends a value, or at the start of a line the section; in a name it is an invalid character.
    if (byte === CR && this.state !== 'name') {
      this.state = this.state === 'start' ? 'end' : 'cr';
      return undefined;
    }
    if (this.state === 'value') return this.valueByte(byte);
    if (this.state === 'start') {
      if (byte === SP || byte === HTAB) return 'a header line folded onto the previous one (obs-fold)';
      this.state = 'name';
    }
    return this.nameByte(byte);
  }

  private afterCr(byte: number): Refusal | undefined {
    const where = this.state === 'end' ? 'at the end of the headers' : 'in a header line';
    if (byte !== LF) return `a CR not followed by LF ${where}`;
    if (this.state === 'end') {
      this.done = true;
      return undefined;
    }
    const { name, value } = this;
    this.state = 'start';
    this.name = '';
    return value === undefined ? undefined : this.onField(name, value);
  }

  private nameByte(byte: number): Refusal | undefined {
    if (byte === COLON && this.name !== '') {
      this.value = this.watched.has(this.name) ? '' : undefined;
      this.state = 'value';
      return undefined;
    }
    if (!isTchar(byte)) return 'an invalid character in a header name';
    if (this.name.length <= this.longest) this.name += LOWER[byte];
    return undefined;
  }

  private valueByte(byte: number): Refusal | undefined {
    if (!isFieldByte(byte)) return 'a control character in a header value';
    if (this.value === undefined) return undefined;
    if (this.value.length >= MAX_FRAMING_VALUE_BYTES) {
      return `a ${this.name} header longer than ${MAX_FRAMING_VALUE_BYTES} bytes`;
    }
    this.value += String.fromCharCode(byte);
    return undefined;
  }
}
