// The shim's connection stands in for the TCP socket under node:http: what node:http and request handlers do through
// it (backpressure, half-open connections, keep-alive timeouts, socket errors, the client's address, socket tuning)
// must work as on the socket itself. Each test runs against plain node:http too, whose behaviour is the one expected.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acceptListMethod } from '../../../src/adapters/http/list-method.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe.each([
  ['plain node:http', false],
  ['node:http behind the LIST shim', true],
])('%s', (_name, shim) => {
  /** A listening server; `raw` receives each TCP socket before node:http (or the shim) sees it. */
  async function serve(
    handler: http.RequestListener,
    options: http.ServerOptions = {},
    raw?: (socket: net.Socket) => void,
  ) {
    const plain = http.createServer(options, handler);
    const server = shim ? acceptListMethod(plain) : plain;
    if (raw) server.prependListener('connection', raw);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }

  function client(port: number) {
    const socket = net.connect(port, '127.0.0.1');
    const state = { received: '', closed: false };
    socket.on('data', (chunk: Buffer) => (state.received += chunk.toString()));
    socket.on('close', () => (state.closed = true));
    socket.on('error', () => undefined);
    return { socket, state };
  }

  it("leaves a body the handler does not read in the client, not in the server's memory", async () => {
    let read = 0;
    let release = () => undefined as void;
    const { port } = await serve((req, res) => {
      release = () => {
        req.on('data', (chunk: Buffer) => (read += chunk.length));
        req.on('end', () => res.end('done'));
      };
    });
    const size = 32 * 1024 * 1024;
    const { socket, state } = client(port);
    socket.write(`POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    socket.write(Buffer.alloc(size));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Socket buffers hold a few MiB; the rest waits in the client until the handler reads.
    expect(socket.writableLength).toBeGreaterThan(size / 4);
    release();
    await expect.poll(() => state.received, { timeout: 10_000 }).toMatch(/done$/);
    expect(read).toBe(size);
  });

  it('answers a client that half-closes after its request, where the server keeps half-open connections', async () => {
    const { server, port } = await serve((_req, res) => void setTimeout(() => res.end('late answer'), 100));
    (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
    const { socket, state } = client(port);
    socket.end('GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => state.closed).toBe(true);
    expect(state.received).toMatch(/late answer$/);
  });

  it('closes a connection left idle past keepAliveTimeout', async () => {
    const { port } = await serve((_req, res) => res.end('ok'), { keepAliveTimeout: 100 });
    const { socket, state } = client(port);
    socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => state.received).toMatch(/ok$/);
    await expect.poll(() => state.closed, { timeout: 3000 }).toBe(true);
  });

  it("reports a connection reset mid-request to 'clientError'", async () => {
    const { server, port } = await serve(() => undefined);
    const errors: string[] = [];
    server.on('clientError', (error: NodeJS.ErrnoException, socket: net.Socket) => {
      errors.push(error.code ?? '');
      socket.destroy();
    });
    const { socket } = client(port);
    socket.write('GET /a HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.resetAndDestroy();
    await expect.poll(() => errors).toEqual(['ECONNRESET']);
  });

  it("gives handlers the client's address and port, and socket timeouts and tuning that reach the TCP socket", async () => {
    let tcp: net.Socket | undefined;
    const seen: Record<string, unknown> = {};
    const { port } = await serve(
      (req, res) => {
        const socket = req.socket;
        Object.assign(seen, { address: socket.remoteAddress, port: socket.remotePort });
        seen.chained = socket.setNoDelay(false) === socket && socket.setKeepAlive(true, 1234) === socket;
        socket.setTimeout(50, () => (seen.timedOut = true));
        res.write('waiting');
      },
      {},
      (socket) => {
        tcp = socket;
        vi.spyOn(socket, 'setNoDelay');
        vi.spyOn(socket, 'setKeepAlive');
      },
    );
    const { socket, state } = client(port);
    await new Promise((resolve) => socket.once('connect', resolve));
    const local = { address: socket.localAddress, port: socket.localPort };
    socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
    // node:http's own 'timeout' handling closes the connection; the handler's callback has been called first or after.
    await expect.poll(() => state.closed).toBe(true);
    expect(seen).toEqual({ ...local, chained: true, timedOut: true });
    expect(tcp!.setNoDelay).toHaveBeenCalledWith(false);
    expect(tcp!.setKeepAlive).toHaveBeenCalledWith(true, 1234);
  });
});
