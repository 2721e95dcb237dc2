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

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
// Larger heads are refused by node:http anyway (431); past this the shim stops looking and passes bytes through.
const MAX_HEAD_BYTES = 64 * 1024;

/** How the body after a head is delimited; `passthrough` means the shim cannot tell, and stops interpreting. */
type Framing = { kind: 'passthrough' } | { kind: 'chunked' } | { kind: 'length'; length: number };

type RewriterState =
  | { kind: 'head' }
  | { kind: 'body'; remaining: number }
  | { kind: 'chunked'; body: ChunkedBody }
  | { kind: 'passthrough' };

function framingOf(method: string | undefined, headers: Map<string, string>): Framing {
  if (method === 'CONNECT' || headers.has('upgrade')) return { kind: 'passthrough' };
  if (/\bchunked\b/i.test(headers.get('transfer-encoding') ?? '')) return { kind: 'chunked' };
  const contentLength = headers.get('content-length');
  if (contentLength === undefined) return { kind: 'length', length: 0 };
  const length = Number(contentLength);
  return Number.isSafeInteger(length) && length >= 0 ? { kind: 'length', length } : { kind: 'passthrough' };
}

/** Reads the framing of one request head and, for LIST, rewrites its request line. */
function rewriteHead(head: Buffer): { bytes: Buffer; framing: Framing } {
  const text = head.toString('latin1');
  const lineEnd = text.indexOf('\r\n');
  const [method, target, version, ...extra] = text.slice(0, lineEnd).split(' ');
  const headers = new Map<string, string>();
  for (const line of text.slice(lineEnd + 2).split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const framing = framingOf(method, headers);
  if (method !== 'LIST' || target === undefined || version === undefined || extra.length > 0) return { bytes: head, framing };
  const listed = `GET ${target}${target.includes('?') ? '&' : '?'}list=true ${version}`;
  return { bytes: Buffer.from(listed + text.slice(lineEnd), 'latin1'), framing };
}

/** The byte-stream rewriter, free of any socket: feed it what the client sent, get what node:http should parse. */
export class ListMethodRewriter {
  private state: RewriterState = { kind: 'head' };
  private head: Buffer = EMPTY;

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
        data = this.readHead(data, out);
      } else if (state.kind === 'body') {
        const n = Math.min(state.remaining, data.length);
        out.push(data.subarray(0, n));
        data = data.subarray(n);
        state.remaining -= n;
        if (state.remaining === 0) this.state = { kind: 'head' };
      } else {
        const n = state.body.consume(data);
        out.push(data.subarray(0, n));
        data = data.subarray(n);
        if (state.body.broken) this.state = { kind: 'passthrough' };
        else if (state.body.done) this.state = { kind: 'head' };
      }
    }
    return out;
  }

  /** Buffers until a whole head is in; returns the bytes after it. */
  private readHead(data: Buffer, out: Buffer[]): Buffer {
    let head = this.head.length > 0 ? Buffer.concat([this.head, data]) : data;
    // Empty lines before a request line are allowed (RFC 9112 §2.2).
    while (head.subarray(0, 2).equals(CRLF)) {
      out.push(CRLF);
      head = head.subarray(2);
    }
    const end = head.indexOf(HEAD_END);
    if (end < 0) {
      this.head = head;
      if (head.length > MAX_HEAD_BYTES) {
        out.push(head);
        this.head = EMPTY;
        this.state = { kind: 'passthrough' };
      }
      return EMPTY;
    }
    this.head = EMPTY;
    const headLength = end + HEAD_END.length;
    const { bytes, framing } = rewriteHead(head.subarray(0, headLength));
    out.push(bytes);
    if (framing.kind === 'passthrough') this.state = framing;
    else if (framing.kind === 'chunked') this.state = { kind: 'chunked', body: new ChunkedBody() };
    else if (framing.length > 0) this.state = { kind: 'body', remaining: framing.length };
    return head.subarray(headLength);
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
