// Node's HTTP parser knows a fixed set of methods and refuses `LIST` (HPE_INVALID_METHOD) before any handler runs,
// yet Vault clients send `LIST /v1/...`. Vault treats `LIST path` and `GET path?list=true` as the same request, so
// this shim sits between the TCP socket and node:http and rewrites the request line of each LIST request into that
// GET. To find where each request starts on a keep-alive connection it follows HTTP/1.1 message framing
// (Content-Length and chunked bodies); the bytes themselves pass through untouched.
import { Server as TlsServer } from 'node:tls';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { ChunkedBody } from './chunked-body.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUESTION = 0x3f;
// Larger heads are refused by node:http anyway (431); past this the shim stops looking and passes bytes through.
const MAX_HEAD_BYTES = 64 * 1024;
// Only three headers matter for framing; a longer line is none of them in any useful form.
const MAX_LINE_CHARS = 8 * 1024;
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'upgrade']);

/** How the body after a head is delimited; `passthrough` means the shim cannot tell, and stops interpreting. */
type Framing = { kind: 'passthrough' } | { kind: 'chunked' } | { kind: 'length'; length: number };

type RewriterState =
  | { kind: 'head'; scanner: HeadScanner }
  | { kind: 'body'; remaining: number }
  | { kind: 'chunked'; body: ChunkedBody }
  | { kind: 'passthrough' };

function framingOf(method: string, headers: Map<string, string>): Framing {
  if (method === 'CONNECT' || headers.has('upgrade')) return { kind: 'passthrough' };
  if (/\bchunked\b/i.test(headers.get('transfer-encoding') ?? '')) return { kind: 'chunked' };
  const contentLength = headers.get('content-length');
  if (contentLength === undefined) return { kind: 'length', length: 0 };
  const length = Number(contentLength);
  return Number.isSafeInteger(length) && length >= 0 ? { kind: 'length', length } : { kind: 'passthrough' };
}

/**
 * Follows one request head as it arrives and hands every byte on at once, so that node:http sees the request start
 * and keeps its own head limits and timeouts in force (a head trickled a byte at a time is cut off by headersTimeout
 * as without the shim). Only the method token is held back, at most the four bytes of "LIST": a LIST line goes on as
 * `GET <target>?list=true`. Lines end at LF (with or without CR), as node:http's parser reads them.
 */
class HeadScanner {
  private phase: 'method' | 'target' | 'lines' = 'method';
  private method = '';
  private held = '';
  private query = false;
  private line = '';
  private lines = 0;
  private size = 0;
  private readonly headers = new Map<string, string>();

  /** Consumes bytes up to the end of the head; `framing` is set once the head is complete. */
  feed(data: Buffer, out: Buffer[]): { used: number; framing?: Framing } {
    let start = 0;
    const emit = (end: number, extra?: string) => {
      if (end > start) out.push(data.subarray(start, end));
      if (extra) out.push(Buffer.from(extra, 'latin1'));
    };
    for (let index = 0; index < data.length; index++) {
      const byte = data[index] as number;
      if (++this.size > MAX_HEAD_BYTES) {
        emit(data.length, undefined);
        return { used: data.length, framing: { kind: 'passthrough' } };
      }
      if (this.phase === 'method') {
        // Empty lines before a request line are allowed (RFC 9112 §2.2) and pass as they are.
        if (this.method === '' && (byte === CR || byte === LF)) continue;
        emit(index);
        start = index + 1;
        if (byte === SPACE || byte === CR || byte === LF) {
          const list = this.method === 'LIST' && byte === SPACE;
          out.push(Buffer.from(list ? 'GET ' : `${this.held}${String.fromCharCode(byte)}`, 'latin1'));
          this.held = '';
          this.phase = list ? 'target' : 'lines';
          if (byte === LF) this.lines = 1;
          continue;
        }
        this.method += String.fromCharCode(byte);
        this.held += String.fromCharCode(byte);
        if (!'LIST'.startsWith(this.method)) {
          out.push(Buffer.from(this.held, 'latin1'));
          this.held = '';
        }
        continue;
      }
      if (this.phase === 'target') {
        if (byte === QUESTION) this.query = true;
        if (byte !== SPACE && byte !== CR && byte !== LF) continue;
        emit(index, `${this.query ? '&' : '?'}list=true`);
        start = index;
        this.phase = 'lines';
      }
      if (byte !== LF) {
        if (this.line.length < MAX_LINE_CHARS) this.line += String.fromCharCode(byte);
        continue;
      }
      const line = this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
      this.line = '';
      if (++this.lines === 1) continue;
      if (line === '') {
        emit(index + 1);
        return { used: index + 1, framing: framingOf(this.method, this.headers) };
      }
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      if (colon > 0 && FRAMING_HEADERS.has(name)) this.headers.set(name, line.slice(colon + 1).trim());
    }
    emit(data.length);
    return { used: data.length };
  }
}

/** The byte-stream rewriter, free of any socket: feed it what the client sent, get what node:http should parse. */
export class ListMethodRewriter {
  private state: RewriterState = { kind: 'head', scanner: new HeadScanner() };

  /** Returns the bytes to hand to node:http, in order; some may be empty. */
  push(input: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let data = input;
    while (data.length > 0) {
      const state = this.state;
      if (state.kind === 'passthrough') {
        out.push(data);
        break;
      }
      if (state.kind === 'head') {
        const { used, framing } = state.scanner.feed(data, out);
        data = data.subarray(used);
        if (framing) this.state = this.after(framing);
      } else if (state.kind === 'body') {
        const n = Math.min(state.remaining, data.length);
        out.push(data.subarray(0, n));
        data = data.subarray(n);
        state.remaining -= n;
        if (state.remaining === 0) this.state = { kind: 'head', scanner: new HeadScanner() };
      } else {
        const n = state.body.consume(data);
        out.push(data.subarray(0, n));
        data = data.subarray(n);
        if (state.body.broken) this.state = { kind: 'passthrough' };
        else if (state.body.done) this.state = { kind: 'head', scanner: new HeadScanner() };
      }
    }
    return out;
  }

  private after(framing: Framing): RewriterState {
    if (framing.kind === 'passthrough') return framing;
    if (framing.kind === 'chunked') return { kind: 'chunked', body: new ChunkedBody() };
    if (framing.length > 0) return { kind: 'body', remaining: framing.length };
    return { kind: 'head', scanner: new HeadScanner() };
  }
}

/**
 * A connection for node:http (which accepts any Duplex through its 'connection' event) that reads from `socket`
 * through a ListMethodRewriter and writes to it unchanged.
 */
class ListMethodConnection extends Duplex {
  constructor(private readonly socket: Socket) {
    super({ allowHalfOpen: true });
    const rewriter = new ListMethodRewriter();
    socket.on('data', (chunk: Buffer) => {
      for (const part of rewriter.push(chunk)) if (part.length > 0 && !this.push(part)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('timeout', () => this.emit('timeout'));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => this.destroy());
  }

  // node:http reads the client's address and tunes the connection through these socket members.
  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }

  /** node:http arms its keep-alive timeout through this. */
  setTimeout(ms: number, callback?: () => void): this {
    this.socket.setTimeout(ms);
    if (callback) this.once('timeout', callback);
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.socket.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(error);
  }
}

/**
 * Puts the shim in front of a node:http server's own connection handling, so that `LIST` requests reach its request
 * handler as `GET ...?list=true`. The server is otherwise used as usual (listen, close, timeouts). Plain HTTP only:
 * the shim reads the bytes on the TCP socket, so for TLS terminate it in front of the server.
 */
export function acceptListMethod<S extends Server>(server: S): S {
  // On a TLS server the shim would sit before decryption and hold the handshake waiting for a request head.
  if (server instanceof TlsServer) {
    throw new TypeError('acceptListMethod works on plain HTTP servers: terminate TLS in front of the server');
  }
  for (const listener of server.listeners('connection')) {
    const handle = listener as (this: S, connection: Duplex) => void;
    server.removeListener('connection', handle);
    server.on('connection', (socket: Socket) => handle.call(server, new ListMethodConnection(socket)));
  }
  return server;
}
