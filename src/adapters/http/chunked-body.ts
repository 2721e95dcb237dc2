// Finds where one chunked request body ends (RFC 9112 §7.1), so that the LIST rewriter knows where the next request
// on a keep-alive connection starts. It only measures: the bytes themselves are never changed.

const LF = 0x0a;
const CRLF_LENGTH = 2;
// A size or trailer line longer than this is not a body anyone means to send; the caller stops interpreting the stream.
const MAX_LINE_BYTES = 8 * 1024;

/** Size lines, data plus CRLF, then trailer lines up to an empty one. */
export class ChunkedBody {
  private state: 'size' | 'data' | 'trailer' = 'size';
  private line = '';
  private remaining = 0;
  done = false;
  /** Set when the framing is unreadable. */
  broken = false;

  /** How many bytes of `data` belong to this body. */
  consume(data: Buffer): number {
    let i = 0;
    while (i < data.length && !this.done && !this.broken) {
      if (this.state === 'data') {
        const n = Math.min(this.remaining, data.length - i);
        i += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'size';
        continue;
      }
      const lineEnd = data.indexOf(LF, i);
      const end = lineEnd < 0 ? data.length : lineEnd;
      this.line += data.toString('latin1', i, end);
      i = lineEnd < 0 ? end : end + 1;
      if (this.line.length > MAX_LINE_BYTES) this.broken = true;
      else if (lineEnd >= 0) {
        this.endLine(this.line.replace(/\r$/, ''));
        this.line = '';
      }
    }
    return i;
  }

  private endLine(line: string): void {
    if (this.state === 'trailer') {
      if (line === '') this.done = true;
      return;
    }
    const size = Number.parseInt(line.split(';')[0]?.trim() ?? '', 16);
    if (!Number.isSafeInteger(size) || size < 0) {
      this.broken = true;
    } else if (size === 0) {
      this.state = 'trailer';
    } else {
      this.state = 'data';
      this.remaining = size + CRLF_LENGTH;
    }
  }
}
