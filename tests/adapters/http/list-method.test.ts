// The LIST shim in front of node:http: a property test of the byte-stream rewriter over arbitrary message sequences
// cut at arbitrary points, and a node:http server taking pipelined raw requests through it.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ListMethodRewriter, acceptListMethod } from '../../../src/adapters/http/list-method.js';

interface Message {
  method: 'LIST' | 'GET' | 'POST' | 'DELETE';
  target: string;
  framing: 'none' | 'length' | 'chunked';
  body: string;
  chunks: number[];
}

function render(message: Message, rewritten: boolean): string {
  const { method, target, framing, body } = message;
  const line =
    rewritten && method === 'LIST'
      ? `GET ${target}${target.includes('?') ? '&' : '?'}list=true HTTP/1.1`
      : `${method} ${target} HTTP/1.1`;
  const framingHeader =
    framing === 'length'
      ? `Content-Length: ${Buffer.byteLength(body)}\r\n`
      : framing === 'chunked'
        ? 'Transfer-Encoding: chunked\r\n'
        : '';
  const head = `${line}\r\nHost: example\r\n${framingHeader}X-Note: LIST /not/a/request HTTP/1.1\r\n\r\n`;
  if (framing === 'length') return head + body;
  if (framing === 'none') return head;
  let rest = body;
  let chunked = '';
  for (const size of message.chunks) {
    if (rest === '') break;
    const piece = rest.slice(0, Math.max(1, size));
    rest = rest.slice(piece.length);
    chunked += `${Buffer.byteLength(piece).toString(16)};ext=1\r\n${piece}\r\n`;
  }
  if (rest !== '') chunked += `${Buffer.byteLength(rest).toString(16)}\r\n${rest}\r\n`;
  return `${head}${chunked}0\r\nX-Trailer: x\r\n\r\n`;
}

const message = fc.record({
  method: fc.constantFrom('LIST', 'GET', 'POST', 'DELETE'),
  target: fc.constantFrom('/v1/secret/metadata/', '/v1/secret/metadata/a?after=b', '/v1/x'),
  framing: fc.constantFrom('none', 'length', 'chunked'),
  // Bodies that look like requests must pass untouched.
  body: fc.oneof(fc.string(), fc.constant('LIST /v1/evil HTTP/1.1\r\n\r\n'), fc.constant('\r\n0\r\n\r\n')),
  chunks: fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 4 }),
}) as fc.Arbitrary<Message>;

function feed(input: Buffer, cuts: number[]): string {
  const rewriter = new ListMethodRewriter();
  const out: Buffer[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b)) {
    out.push(...rewriter.push(input.subarray(start, cut)));
    start = cut;
  }
  out.push(...rewriter.push(input.subarray(start)));
  return Buffer.concat(out).toString('utf8');
}

describe('ListMethodRewriter', () => {
  it('rewrites exactly the LIST request lines, wherever the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (messages, cuts) => {
          const input = Buffer.from(messages.map((m) => render(m, false)).join(''));
          expect(feed(input, cuts)).toBe(messages.map((m) => render(m, true)).join(''));
        },
      ),
    );
  });

  it('hands on a chunk without LIST as one view of the chunk itself, its body included, not a copy', () => {
    const input = Buffer.from('GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}');
    const out = new ListMethodRewriter().push(input);
    expect(out).toHaveLength(1);
    expect(out[0]!.buffer).toBe(input.buffer);
    expect(out[0]!.equals(input)).toBe(true);
  });

  it('keeps empty lines between requests', () => {
    expect(feed(Buffer.from('\r\nLIST /a HTTP/1.1\r\nHost: x\r\n\r\n'), [1])).toBe(
      '\r\nGET /a?list=true HTTP/1.1\r\nHost: x\r\n\r\n',
    );
  });
});

describe('acceptListMethod', () => {
  async function withServer(run: (port: number, seen: string[]) => Promise<void>): Promise<void> {
    const seen: string[] = [];
    const server = acceptListMethod(
      http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          seen.push(`${req.method} ${req.url}`);
          res.end('ok');
        });
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await run((server.address() as AddressInfo).port, seen);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('serves pipelined LIST, POST and GET requests on one connection', async () => {
    await withServer(async (port, seen) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.write(
        'LIST /v1/secret/metadata/a HTTP/1.1\r\nHost: x\r\n\r\n' +
          'POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nLIST ' +
          'LIST /v1/b?after=c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      await new Promise((resolve) => socket.on('close', resolve));
      expect(seen).toEqual(['GET /v1/secret/metadata/a?list=true', 'POST /v1/x', 'GET /v1/b?after=c&list=true']);
      expect(received.match(/HTTP\/1.1 200 OK/g)).toHaveLength(3);
    });
  });

  /** Sends `head` a byte at a time every `gapMs` until the server closes the connection; answers what came back. */
  async function trickle(port: number, head: string, gapMs: number): Promise<{ closed: boolean; received: string }> {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let closed = false;
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    // A first request completes, so that the trickled one is the next on a kept-alive connection: its head timer starts
    // only when node:http sees its first byte.
    socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!received.includes('ok')) await new Promise((resolve) => setTimeout(resolve, 10));
    received = '';
    for (const char of head) {
      if (closed) break;
      socket.write(char);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    socket.destroy();
    return { closed, received };
  }

  it("keeps node:http's headersTimeout in force for a head trickled a byte at a time (issue 18.6)", async () => {
    const server = acceptListMethod(
      http.createServer(
        { headersTimeout: 500, requestTimeout: 1000, keepAliveTimeout: 5000, connectionsCheckingInterval: 100 },
        (_req, res) => res.end('ok'),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      // 60 bytes at 50 ms is 3 s of trickling: far past the 500 ms the head may take.
      const { closed, received } = await trickle(port, `LIST /v1/a HTTP/1.1\r\nX-Slow: ${'a'.repeat(40)}`, 50);
      expect(closed).toBe(true);
      expect(received).toMatch(/^HTTP\/1.1 408/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('has node:http answer 400 and close the connection at a refused request', async () => {
    await withServer(async (port, seen) => {
      for (const refused of [
        'POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nLIST ',
        'LIST /v1/a HTTP/1.1\nHost: x\n\n',
        'POST /v1/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nLIST \n0\r\n\r\n',
      ]) {
        seen.length = 0;
        const socket = net.connect(port, '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        // The connection has served a request before: the refusal ends it without touching what came before.
        socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
        await expect.poll(() => received).toMatch(/ok$/);
        socket.write(`${refused}LIST /v1/after HTTP/1.1\r\nHost: x\r\n\r\n`);
        await new Promise((resolve) => socket.on('close', resolve));
        expect(seen).toEqual(['GET /first']);
        expect(received).toMatch(
          /^HTTP\/1.1 200 OK\r\n[^]*\r\n\r\nokHTTP\/1.1 400 Bad Request\r\nConnection: close\r\n\r\n$/,
        );
      }
    });
  });

  it('refuses a TLS server instead of stalling its handshakes', () => {
    expect(() => acceptListMethod(https.createServer())).toThrow(/plain HTTP servers/);
  });

  it('leaves node:http to refuse what it refuses', async () => {
    await withServer(async (port, seen) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.write('BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise((resolve) => socket.on('close', resolve));
      expect(received).toMatch(/^HTTP\/1.1 400 Bad Request/);
      expect(seen).toEqual([]);
    });
  });
});
