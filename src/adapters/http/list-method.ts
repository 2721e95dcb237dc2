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
  | { kind: 'passthrough' };

const nextHead = (): RewriterState => ({ kind: 'head', head: new RequestHead() });

/** The byte-stream rewriter, free of any socket: feed it what the client sent, get what node:http should parse. */
export class ListMethodRewriter {
  private state: RewriterState = nextHead();
  /** Why the stream was refused; once set, nothing more is passed on. */
  refusal: Refusal | undefined;

  /** Returns the bytes to hand to node:http, in order; some may be empty. */
  push(input: Buffer): Buffer[] {
    if (this.refusal !== undefined) return [];
    const out: Buffer[] = [];
    let index = 0;
    while (index < input.length && this.refusal === undefined) {
      const state = this.state;
      switch (state.kind) {
        case 'passthrough':
          out.push(input.subarray(index));
          index = input.length;
          break;
        case 'body': {
          const end = index + Math.min(state.remaining, input.length - index);
          out.push(input.subarray(index, end));
          state.remaining -= end - index;
          index = end;
          if (state.remaining === 0) this.state = nextHead();
          break;
        }
        case 'head':
          index = state.head.feed(input, index, out);
          this.refusal = state.head.refusal;
          if (state.head.framing) this.state = this.after(state.head.framing);
          break;
        case 'chunked': {
          const end = state.body.consume(input, index);
          out.push(input.subarray(index, end));
          index = end;
          this.refusal = state.body.refusal;
          if (state.body.done) this.state = nextHead();
          break;
        }
      }
    }
    if (this.refusal !== undefined) out.push(REFUSED);
    return out;
  }

  private after(framing: Framing): RewriterState {
    switch (framing.kind) {
      case 'passthrough':
        return framing;
      case 'chunked':
        return { kind: 'chunked', body: new ChunkedBody() };
      case 'length':
        // A body of 0 bytes ends at once: the next push starts the next head.
        return { kind: 'body', remaining: framing.length };
    }
  }
}

/**
 * A connection for node:http (which accepts any Duplex through its 'connection' event) that reads from `socket`
 * through a ListMethodRewriter and writes to it unchanged.
 */
class ListMethodConnection extends Duplex {
  private readonly rewriter = new ListMethodRewriter();

  constructor(private readonly socket: Socket) {
    // A Duplex stays half-open by default: when the client ends its side, node:http decides when to end this one.
    super();
    socket.on('data', (chunk: Buffer) => {
      // One push per chunk read: node:http parses the stream in the pieces the socket delivered, as without the shim.
      // After a refusal nothing more is passed on: node:http closes the connection once it reaches the refused byte.
      if (!this.push(Buffer.concat(this.rewriter.push(chunk)))) socket.pause();
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

  /**
   * node:http corks the connection and writes a response's head and body apart: handed over one by one they would leave
   * as two writes (two TCP segments, two system calls); corked here too they leave as one, as from a plain socket.
   */
  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.socket.cork();
    chunks.forEach(({ chunk, encoding }, index) =>
      this.socket.write(chunk, encoding, index === chunks.length - 1 ? callback : undefined),
    );
    this.socket.uncork();
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
