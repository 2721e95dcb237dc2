// Finds where one chunked request body ends (RFC 9112 §7.1), so that the LIST shim knows where the next request on a
// keep-alive connection starts. It only measures: the bytes themselves are never changed. It reads as strictly as
// node:http's parser: CRLF after every size line and every chunk, hex digits right before it or before `;`, trailer
// lines as header lines; anything else is refused, never skipped over.
import { CR, FieldSection, isFieldByte, LF, type Refusal } from './field-section.js';

// Node's parser refuses sizes past 64 bits; sizes this large are no body anyone sends, and stay exact in a double.
const MAX_CHUNK_SIZE = Number.MAX_SAFE_INTEGER;
// In a trailer these would be read by node:http's parser as framing of a message already framed: it refuses them.
const FRAMING_FIELDS = new Set(['content-length', 'transfer-encoding', 'upgrade']);

/** The states read a byte at a time; `data` and `trailers` are read by the run. */
type LineState = 'first-digit' | 'size' | 'extension' | 'size-lf' | 'data-cr' | 'data-lf';
type State = LineState | 'data' | 'trailers';

const HEX_DIGITS = '0123456789abcdef';
const SEMICOLON = 0x3b;

export class ChunkedBody {
  private state: State = 'first-digit';
  private size = 0;
  private remaining = 0;
  private trailers: FieldSection | undefined;
  done = false;
  refusal: Refusal | undefined;

  /** How many bytes from `data[start]` on belong to this body; it stops at the body's end or the first refused byte. */
  consume(data: Buffer, start: number): number {
    let index = start;
    while (index < data.length && !this.done && this.refusal === undefined) {
      const state = this.state;
      if (state === 'data') {
        const n = Math.min(this.remaining, data.length - index);
        index += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'data-cr';
      } else if (state === 'trailers') {
        const trailers = this.trailers!;
        index = trailers.feed(data, index);
        this.refusal = trailers.refusal;
        this.done = trailers.done;
      } else {
        this.refusal = this.step(state, data[index] as number);
        if (this.refusal === undefined) index++;
      }
    }
    return index;
  }

  private step(state: LineState, byte: number): Refusal | undefined {
    switch (state) {
      case 'first-digit':
      case 'size':
        return this.sizeByte(state, byte);
      case 'extension':
        if (byte === CR) this.state = 'size-lf';
        else if (!isFieldByte(byte)) return 'a control character in a chunk extension';
        return undefined;
      case 'size-lf':
        if (byte !== LF) return 'a chunk size line not ended by CRLF';
        this.endSizeLine();
        return undefined;
      case 'data-cr':
        if (byte !== CR) return 'chunk data not followed by CRLF';
        this.state = 'data-lf';
        return undefined;
      case 'data-lf':
        if (byte !== LF) return 'chunk data not followed by CRLF';
        this.state = 'first-digit';
        this.size = 0;
        return undefined;
    }
  }

  private sizeByte(state: 'first-digit' | 'size', byte: number): Refusal | undefined {
    const digit = HEX_DIGITS.indexOf(String.fromCharCode(byte).toLowerCase());
    if (digit >= 0) {
      if (this.size > (MAX_CHUNK_SIZE - digit) / 16) return 'a chunk size too large';
      this.size = this.size * 16 + digit;
      this.state = 'size';
      return undefined;
    }
    if (state === 'first-digit') return 'a chunk size line that does not start with a hex digit';
    if (byte === SEMICOLON) this.state = 'extension';
    else if (byte === CR) this.state = 'size-lf';
    else return 'an invalid character after a chunk size';
    return undefined;
  }

  private endSizeLine(): void {
    if (this.size > 0) {
      this.state = 'data';
      this.remaining = this.size;
    } else {
      this.state = 'trailers';
      this.trailers = new FieldSection(FRAMING_FIELDS, (name) => `a ${name} header in the trailers`);
    }
  }
}
