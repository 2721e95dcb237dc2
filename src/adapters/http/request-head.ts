// One request head, read byte by byte as node:http's parser reads it, to learn how its body is framed, and to rewrite
// its request line when the method is LIST. The request line must be `method SP target SP HTTP/1.x CRLF`; framing
// headers must be readable whole, once each, never both Content-Length and Transfer-Encoding, the coding `chunked`.
import { CR, FieldSection, isTchar, isVisible, LF, SP, type Refusal } from './field-section.js';

const QUESTION = 0x3f;
// What follows the target; `?` is the minor version, 0 or 1.
const VERSION_END = 'HTTP/1.?\r\n';
const FRAMING_FIELDS = new Set(['content-length', 'transfer-encoding', 'upgrade']);

/** How the body after a head is delimited; `passthrough`: the rest of the connection is another protocol. */
export type Framing = { kind: 'passthrough' } | { kind: 'chunked' } | { kind: 'length'; length: number };

type Phase = 'method' | 'target' | 'version' | 'fields';
/** One byte of the request line: passed on as it is (neither set), replaced (`''` drops it), or refused. */
type Step = { refusal?: Refusal; replacement?: string };
/** The step of a byte passed on as it is: one object for all, as nearly every byte of a request line is one. */
const PASS: Step = Object.freeze({});

/**
 * Hands every byte on at once, so that node:http sees the request start and keeps its own head limits and timeouts in
 * force (a head trickled a byte at a time is cut off by headersTimeout as without the shim). Only the method is held
 * back while it may still be "LIST", at most four bytes: a LIST line goes on as `GET <target>?list=true`.
 */
export class RequestHead {
  private phase: Phase = 'method';
  private method = '';
  private held = '';
  private target = false;
  private query = false;
  private version = 0;
  private readonly fields = new FieldSection(FRAMING_FIELDS, (name, value) => this.framingField(name, value));
  private length: number | undefined;
  private chunked = false;
  private upgrade = false;
  refusal: Refusal | undefined;
  framing: Framing | undefined;

  /**
   * Reads from `data[start]` on, pushing what node:http should parse onto `out`; answers the index after the last
   * byte read. It stops once the head is complete (`framing`) or on the first byte it refuses (`refusal`).
   */
  feed(data: Buffer, start: number, out: Buffer[]): number {
    // From `from` on, the bytes read are passed on as they are.
    let from = start;
    const pass = (end: number) => out.push(data.subarray(from, end));
    for (let index = start; index < data.length; index++) {
      if (this.phase === 'fields') {
        const end = this.fields.feed(data, index);
        pass(end);
        this.refusal = this.fields.refusal;
        if (this.fields.done) this.framing = this.framingOf();
        return end;
      }
      const { refusal, replacement } = this.requestLineByte(data[index] as number);
      if (refusal === undefined && replacement === undefined) continue;
      pass(index);
      if (refusal !== undefined) {
        this.refusal = refusal;
        return index;
      }
      // Replacements are ASCII: a held method is made of tchars.
      out.push(Buffer.from(replacement!));
      from = index + 1;
    }
    pass(data.length);
    return data.length;
  }

  private requestLineByte(byte: number): Step {
    if (this.phase === 'method') return this.methodByte(byte);
    if (this.phase === 'target') return this.targetByte(byte);
    return this.versionByte(byte);
  }

  private methodByte(byte: number): Step {
    // Empty lines before a request line are skipped by node:http's parser (RFC 9112 §2.2), bare CR and LF included.
    if (this.method === '' && (byte === CR || byte === LF)) return PASS;
    if (byte === SP) {
      if (this.method === '') return { refusal: 'a request line without a method' };
      this.phase = 'target';
      if (this.method === 'LIST') return { replacement: 'GET ' };
      return this.release(' ');
    }
    if (!isTchar(byte)) return { refusal: 'an invalid character in the method' };
    const char = String.fromCharCode(byte);
    // Enough of the method is kept to tell LIST and CONNECT from every other.
    if (this.method.length <= 'CONNECT'.length) this.method += char;
    if (!'LIST'.startsWith(this.method)) return this.release(char);
    this.held += char;
    return { replacement: '' };
  }

  /** The step of the byte `char` after which the method is not LIST: what was held back goes on before it. */
  private release(char: string): Step {
    if (this.held === '') return PASS;
    const replacement = this.held + char;
    this.held = '';
    return { replacement };
  }

  private targetByte(byte: number): Step {
    if (byte === SP) {
      if (!this.target) return { refusal: 'a request line without a target' };
      this.phase = 'version';
      return this.method === 'LIST' ? { replacement: `${this.query ? '&' : '?'}list=true ` } : PASS;
    }
    if (!isVisible(byte)) return { refusal: 'an invalid character in the request target' };
    this.target = true;
    this.query ||= byte === QUESTION;
    return PASS;
  }

  private versionByte(byte: number): Step {
    const expected = VERSION_END.charCodeAt(this.version++);
    const valid = expected === QUESTION ? byte === 0x30 || byte === 0x31 : byte === expected;
    if (!valid) return { refusal: 'a request line not ending in HTTP/1.0 or HTTP/1.1 and CRLF' };
    if (this.version === VERSION_END.length) this.phase = 'fields';
    return PASS;
  }

  private framingField(name: string, value: string): Refusal | undefined {
    if (name === 'upgrade') {
      this.upgrade = true;
      return undefined;
    }
    if (this.length !== undefined || this.chunked) {
      return 'repeated or conflicting Content-Length and Transfer-Encoding headers';
    }
    const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
    if (name === 'transfer-encoding') {
      if (trimmed.toLowerCase() !== 'chunked') return 'a Transfer-Encoding other than chunked';
      this.chunked = true;
      return undefined;
    }
    const length = /^[0-9]+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (!Number.isSafeInteger(length)) return 'a Content-Length that is not a number of bytes';
    this.length = length;
    return undefined;
  }

  private framingOf(): Framing {
    // After an upgrade or a CONNECT the connection carries another protocol: nothing in it is rewritten.
    if (this.upgrade || this.method === 'CONNECT') return { kind: 'passthrough' };
    if (this.chunked) return { kind: 'chunked' };
    return { kind: 'length', length: this.length ?? 0 };
  }
}
