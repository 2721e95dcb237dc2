// Node's HTTP parser knows a fixed set of methods and refuses `LIST` (HPE_INVALID_METHOD) before any handler runs,
// yet Vault clients send `LIST /v1/...`. Vault treats `LIST path` and `GET path?list=true` as the same request, so
// this shim sits between the TCP socket and node:http and rewrites the request line of each LIST request into that
// GET. The rewrite lengthens the stream, so the shim must never disagree with node:http about where a request ends:
// were it to take body bytes for a request line, the added bytes would push the body's end into the next request on
// the connection, which a proxy sharing connections fills with another client's request. So it reads the framing
// (Content-Length, chunked bodies) exactly as node:http's parser does, and refuses anything it cannot read that way
// (a framing header too long to keep, two of them, a bare LF, obs-fold, ...): node:http then answers 400 and closes
// the connection. Apart from the rewritten request lines, the bytes pass through untouched.
import { Server as TlsServer } from 'node:tls';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { ChunkedBody } from './chunked-body.js';
import type { Refusal } from './field-section.js';
import { RequestHead, type Framing } from './request-head.js';

/**
 * What a refusal hands node:http in place of the refused byte: NUL is invalid wherever the shim can refuse (a method,
 * a target, a version, a header line, a chunk size line, the CRLF after chunk data), so node:http's parser fails right
 * there and node:http answers 400 and closes, after the requests before it, as for any malformed request.
 */
const REFUSED = Buffer.from([0]);

type RewriterState =
  | { kind: 'head'; head: RequestHead }
  | { kind: 'body'; remaining: number }
  | { kind: 'chunked'; body: ChunkedBody }
  | { kind: 'passthrough' }
  | { kind: 'refused'; refusal: Refusal };

const nextHead = (): RewriterState => ({ kind: 'head', head: new RequestHead() });

/** The byte-stream rewriter, free of any socket: feed it what the client sent, get what node:http should parse. */
export class ListMethodRewriter {
  private state: RewriterState = nextHead();

  /** Why the stream was refused; once set, nothing more is passed on. */
  get refusal(): Refusal | undefined {
    return this.state.kind === 'refused' ? this.state.refusal : undefined;
  }

  /** Returns the bytes to hand to node:http, in order. */
  push(input: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let index = 0;
    while (index < input.length) {
      const state = this.state;
      if (state.kind === 'refused') break;
      if (state.kind === 'passthrough') {
        out.push(input.subarray(index));
        break;
      }
      if (state.kind === 'body') {
        const n = Math.min(state.remaining, input.length - index);
        out.push(input.subarray(index, index + n));
        index += n;
        state.remaining -= n;
        if (state.remaining === 0) this.state = nextHead();
        continue;
      }
      if (state.kind === 'head') {
        index = state.head.feed(input, index, out);
        if (state.head.refusal !== undefined) this.refuse(out, state.head.refusal);
        else if (state.head.framing) this.state = this.after(state.head.framing);
      } else {
        const end = state.body.consume(input, index);
        if (end > index) out.push(input.subarray(index, end));
        index = end;
        if (state.body.refusal !== undefined) this.refuse(out, state.body.refusal);
        else if (state.body.done) this.state = nextHead();
      }
    }
    return out;
  }

  private refuse(out: Buffer[], refusal: Refusal): void {
    out.push(REFUSED);
    this.state = { kind: 'refused', refusal };
  }

  private after(framing: Framing): RewriterState {
    if (framing.kind === 'passthrough') return framing;
    if (framing.kind === 'chunked') return { kind: 'chunked', body: new ChunkedBody() };
    return framing.length > 0 ? { kind: 'body', remaining: framing.length } : nextHead();
  }
}

/**
 * A connection for node:http (which accepts any Duplex through its 'connection' event) that reads from `socket`
 * through a ListMethodRewriter and writes to it unchanged.
 */
class ListMethodConnection extends Duplex {
  private readonly rewriter = new ListMethodRewriter();

  constructor(private readonly socket: Socket) {
    super({ allowHalfOpen: true });
    socket.on('data', (chunk: Buffer) => {
      // One push per chunk read: node:http parses the stream in the pieces the socket delivered, as without the shim.
      const parts = this.rewriter.push(chunk);
      if (parts.length > 0 && !this.push(parts.length === 1 ? parts[0] : Buffer.concat(parts))) socket.pause();
      // What follows a refusal is never read: node:http closes the connection once it reaches the refused byte.
      if (this.rewriter.refusal !== undefined) socket.pause();
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
    if (this.rewriter.refusal === undefined) this.socket.resume();
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
