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

/**
 * `parts` without empty pieces, and each run of pieces side by side in one buffer made one: a chunk with no LIST in it
 * comes out as one view of itself, which node:http takes without a copy.
 */
function joinAdjacent(parts: Buffer[]): Buffer[] {
  const joined: Buffer[] = [];
  for (const part of parts) {
    const last = joined.at(-1);
    if (last && last.buffer === part.buffer && last.byteOffset + last.length === part.byteOffset)
      joined[joined.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + part.length);
    else if (part.length > 0) joined.push(part);
  }
  return joined;
}

/** The byte-stream rewriter, free of any socket: feed it what the client sent, get what node:http should parse. */
export class ListMethodRewriter {
  private state: RewriterState = nextHead();
  /** Why the stream was refused; once set, nothing more is passed on. */
  refusal: Refusal | undefined;

  /** Returns the bytes to hand to node:http, in order, none of them empty. */
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
    return joinAdjacent(out);
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
 * Has whatever `socket` reads pass through a ListMethodRewriter on its way in: every chunk the socket receives enters
 * its readable side through `push`, which is where the rewrite happens. Everything else (writes, timeouts, addresses,
 * back-pressure) stays the socket's own, where a stream of our own around it put a second set of stream layers under
 * every read and every write.
 */
function rewriteIncoming(socket: Socket): void {
  const rewriter = new ListMethodRewriter();
  const push = socket.push.bind(socket);
  socket.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (!Buffer.isBuffer(chunk)) return push(chunk, encoding);
    // One push per chunk read: node:http parses the stream in the pieces the socket delivered, as without the shim.
    // After a refusal the parts are empty: nothing more is passed on, and node:http closes at the refused byte.
    const parts = rewriter.push(chunk);
    return push(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  };
}

/** Listening for data is what turns node:http's native parsing of a socket off; the listener itself has nothing to do. */
const readInJavaScript = (): void => undefined;

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
    const handle = listener as (this: S, connection: Socket) => void;
    server.removeListener('connection', handle);
    server.on('connection', (socket: Socket) => {
      rewriteIncoming(socket);
      handle.call(server, socket);
      // node:http hands a plain socket to its parser natively, where bytes never reach `push`; a data listener
      // added after it took the socket makes it read in JavaScript instead, through the socket's readable side.
      socket.on('data', readInJavaScript);
    });
  }
  return server;
}
