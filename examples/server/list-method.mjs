// Node's HTTP parser knows a fixed set of methods and refuses `LIST` (HPE_INVALID_METHOD) before any handler runs,
// yet Vault clients send `LIST /v1/...`. Vault treats `LIST path` and `GET path?list=true` as the same request, so
// this shim sits between the TCP socket and node:http and rewrites the request line of each LIST request into that
// GET. To find where each request starts on a keep-alive connection it follows HTTP/1.1 message framing
// (Content-Length and chunked bodies); the bytes themselves pass through untouched.
import { Duplex } from 'node:stream';

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
// Larger heads are refused by node:http anyway (431); past this the shim stops looking and passes bytes through.
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 8 * 1024;

/** Finds the end of one chunked body (RFC 9112 §7.1): size lines, data plus CRLF, then trailer lines. */
class ChunkedBody {
  state = 'size';
  line = '';
  remaining = 0;
  done = false;
  /** Set when the framing is unreadable: the shim then stops interpreting the stream. */
  broken = false;

  /** How many bytes of `data` belong to this body. */
  consume(data) {
    let i = 0;
    while (i < data.length && !this.done && !this.broken) {
      if (this.state === 'data') {
        const n = Math.min(this.remaining, data.length - i);
        i += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'size';
        continue;
      }
      const byte = data[i++];
      if (byte !== 0x0a) {
        this.line += String.fromCharCode(byte);
        if (this.line.length > MAX_LINE_BYTES) this.broken = true;
        continue;
      }
      this.endLine(this.line.replace(/\r$/, ''));
      this.line = '';
    }
    return i;
  }

  endLine(line) {
    if (this.state === 'trailer') {
      if (line === '') this.done = true;
      return;
    }
    const size = Number.parseInt(line.split(';')[0].trim(), 16);
    if (!Number.isSafeInteger(size) || size < 0) {
      this.broken = true;
    } else if (size === 0) {
      this.state = 'trailer';
    } else {
      this.state = 'data';
      this.remaining = size + CRLF.length;
    }
  }
}

/** Reads the framing of one request head and, for LIST, rewrites its request line. */
function rewriteHead(head) {
  const text = head.toString('latin1');
  const lineEnd = text.indexOf('\r\n');
  const parts = text.slice(0, lineEnd).split(' ');
  const headers = new Map();
  for (const line of text.slice(lineEnd + 2).split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let framing;
  if (parts[0] === 'CONNECT' || headers.has('upgrade')) framing = { kind: 'passthrough' };
  else if (/\bchunked\b/i.test(headers.get('transfer-encoding') ?? '')) framing = { kind: 'chunked' };
  else if (headers.has('content-length')) {
    const length = Number(headers.get('content-length'));
    framing = Number.isSafeInteger(length) && length >= 0 ? { kind: 'length', length } : { kind: 'passthrough' };
  } else framing = { kind: 'length', length: 0 };

  if (parts.length !== 3 || parts[0] !== 'LIST') return { bytes: head, framing };
  const [, target, version] = parts;
  const listed = `GET ${target}${target.includes('?') ? '&' : '?'}list=true ${version}`;
  return { bytes: Buffer.from(listed + text.slice(lineEnd), 'latin1'), framing };
}

/** The byte-stream rewriter, free of any socket: feed it what the client sent, get what node:http should parse. */
export class ListMethodRewriter {
  state = 'head';
  head = EMPTY;
  remaining = 0;
  chunked = undefined;

  push(input) {
    const out = [];
    let data = input;
    while (data.length > 0) {
      if (this.state === 'passthrough') {
        out.push(data);
        break;
      }
      if (this.state === 'head') {
        data = this.readHead(data, out);
      } else if (this.state === 'body') {
        const n = Math.min(this.remaining, data.length);
        out.push(data.subarray(0, n));
        data = data.subarray(n);
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'head';
      } else {
        const n = this.chunked.consume(data);
        out.push(data.subarray(0, n));
        data = data.subarray(n);
        if (this.chunked.broken) this.state = 'passthrough';
        else if (this.chunked.done) this.state = 'head';
      }
    }
    return out;
  }

  /** Buffers until a whole head is in; returns the bytes after it. */
  readHead(data, out) {
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
        this.state = 'passthrough';
      }
      return EMPTY;
    }
    this.head = EMPTY;
    const { bytes, framing } = rewriteHead(head.subarray(0, end + HEAD_END.length));
    out.push(bytes);
    if (framing.kind === 'passthrough') this.state = 'passthrough';
    else if (framing.kind === 'chunked') {
      this.state = 'chunked';
      this.chunked = new ChunkedBody();
    } else if (framing.length > 0) {
      this.state = 'body';
      this.remaining = framing.length;
    }
    return head.subarray(end + HEAD_END.length);
  }
}

/**
 * A connection for node:http (which accepts any Duplex through its 'connection' event) that reads from `socket`
 * through a ListMethodRewriter and writes to it unchanged.
 */
export class ListMethodConnection extends Duplex {
  constructor(socket) {
    super({ allowHalfOpen: true });
    this.socket = socket;
    const rewriter = new ListMethodRewriter();
    socket.on('data', (chunk) => {
      for (const part of rewriter.push(chunk)) if (part.length > 0 && !this.push(part)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('timeout', () => this.emit('timeout'));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => this.destroy());
  }

  get remoteAddress() {
    return this.socket.remoteAddress;
  }

  get remotePort() {
    return this.socket.remotePort;
  }

  /** node:http arms its keep-alive timeout through this. */
  setTimeout(ms, callback) {
    this.socket.setTimeout(ms);
    if (callback) this.once('timeout', callback);
    return this;
  }

  setNoDelay(noDelay) {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable, delay) {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }

  _read() {
    this.socket.resume();
  }

  _write(chunk, encoding, callback) {
    this.socket.write(chunk, encoding, callback);
  }

  _final(callback) {
    this.socket.end(callback);
  }

  _destroy(error, callback) {
    this.socket.destroy();
    callback(error);
  }
}

/**
 * Puts the shim in front of a node:http server's own connection handling, so that `LIST` requests reach its request
 * handler as `GET ...?list=true`. The server is otherwise used as usual (listen, close, timeouts).
 * @param {import('node:http').Server} server
 */
export function acceptListMethod(server) {
  for (const listener of server.listeners('connection')) {
    server.removeListener('connection', listener);
    server.on('connection', (socket) => listener.call(server, new ListMethodConnection(socket)));
  }
  return server;
}
