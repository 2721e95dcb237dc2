// What anonymous (and authenticated) traffic can make the server hold: bodies without a valid token stay small and are
// refused before they are read, all bodies in flight share one budget, a body must arrive in time, and connections
// are bounded. Each bound is tested at the limit and one past, through createServer's options.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyBudget } from '../../../src/server/http/body-budget.js';
import { createServer, type ServerOptions } from '../../../src/server/index.js';
import { request, startServer, type Started } from '../harness.js';

const root = 'sr.limits-root';
/** A KV write body of exactly `size` bytes. */
const kvBody = (size: number) => `{"data":{"b":"${'x'.repeat(size - 17)}"}}`;

/** A raw connection to the server: write to it, read what came back, and see whether the server closed it. */
function connect(url: string) {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
  const state = { received: '', closed: false };
  socket.on('data', (chunk: Buffer) => (state.received += chunk.toString('latin1')));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => undefined);
  return { socket, state, status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(state.received)?.[1] ?? 0) };
}

/** Starts a server with `options` for the tests of one describe block; answers how to reach it. */
function serverWith(options: ServerOptions): () => Started {
  let started: Started;
  beforeAll(async () => {
    started = await startServer(options);
  });
  afterAll(() => started?.stop());
  return () => started;
}

const head = (path: string, length: number, token?: string) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\n${token ? `X-Vault-Token: ${token}\r\n` : ''}Content-Length: ${length}\r\n\r\n`;

describe('bodies without a valid token', () => {
  const server = serverWith({ rootToken: root, maxBodyBytes: 1000, maxUnauthenticatedBodyBytes: 100 });
  const send = (size: number, token?: string, chunked = false) =>
    request(server().url, {
      method: 'POST',
      path: '/v1/secret/data/a',
      token,
      rawBody: kvBody(size),
      headers: chunked ? { 'Transfer-Encoding': 'chunked' } : {},
    });

  it('are read up to maxUnauthenticatedBodyBytes, and refused with 413 one byte past it', async () => {
    for (const chunked of [false, true]) {
      expect((await send(100, undefined, chunked)).status).toBe(403);
      const refused = await send(101, undefined, chunked);
      expect(refused.status).toBe(413);
      expect(refused.json).toEqual({
        errors: ['request body is larger than the limit of 100 bytes for a request without a valid token'],
      });
      expect(refused.headers.connection).toBe('close');
      expect((await send(101, 'sr.not-a-token', chunked)).status).toBe(413);
    }
  });

  it("are refused before they are read: the review's attack, connections withholding a body's last byte", async () => {
    const clients = Array.from({ length: 20 }, (_, index) => {
      const client = connect(server().url);
      client.socket.write(head(`/v1/secret/data/held${index}`, 1000) + kvBody(1000).slice(0, 999));
      return client;
    });
    for (const client of clients) await expect.poll(() => client.state.closed).toBe(true);
    expect(clients.map((client) => client.status())).toEqual(clients.map(() => 413));
    // A login's body, sent head first, is answered before the body is sent at all.
    const login = connect(server().url);
    login.socket.write(head('/v1/auth/aws/login', 500));
    await expect.poll(() => login.state.closed).toBe(true);
    expect(login.status()).toBe(413);
  });

  it('with a valid token, bodies reach maxBodyBytes', async () => {
    expect((await send(1000, root)).status).toBe(200);
    expect((await send(1001, root)).status).toBe(413);
    expect((await send(1000, root, true)).status).toBe(200);
  });
});

describe('the budget of bodies in flight', () => {
  const server = serverWith({ rootToken: root, maxBodyBytes: 700, maxInflightBodyBytes: 1000 });

  it('holds bodies up to maxInflightBodyBytes together', async () => {
    const a = connect(server().url);
    const b = connect(server().url);
    a.socket.write(head('/v1/secret/data/a', 600, root) + kvBody(600).slice(0, 599));
    b.socket.write(head('/v1/secret/data/b', 401, root) + kvBody(401));
    await expect.poll(() => b.status()).toBe(200);
    a.socket.write(kvBody(600).slice(599));
    await expect.poll(() => a.status()).toBe(200);
    a.socket.destroy();
    b.socket.destroy();
  });

  it('refuses with 503 the body that would take them one byte past it, and gives its bytes back', async () => {
    const a = connect(server().url);
    const b = connect(server().url);
    // Both withhold their last byte, so both are in flight when their bytes reach 1001 together.
    a.socket.write(head('/v1/secret/data/a', 600, root) + kvBody(600).slice(0, 599));
    b.socket.write(head('/v1/secret/data/b', 403, root) + kvBody(403).slice(0, 402));
    await expect.poll(() => a.status() + b.status()).toBe(503);
    const [refused, served] = a.status() === 503 ? [a, b] : [b, a];
    expect(refused.state.received).toContain('{"errors":["too many request bodies in flight: retry later"]}');
    await expect.poll(() => refused.state.closed).toBe(true);
    served.socket.write(served === a ? kvBody(600).slice(599) : kvBody(403).slice(402));
    await expect.poll(() => served.status()).toBe(200);
    served.socket.destroy();
    expect(
      (await request(server().url, { method: 'POST', path: '/v1/secret/data/c', token: root, rawBody: kvBody(700) }))
        .status,
    ).toBe(200);
  });
});

describe('BodyBudget', () => {
  it('lets holds take bytes up to the limit together, refuses one byte past it, and takes back what a hold released', () => {
    const budget = new BodyBudget(10);
    const [first, second] = [budget.open(), budget.open()];
    expect(first.take(6)).toBe(true);
    expect(second.take(5)).toBe(false);
    expect(second.take(4)).toBe(true);
    expect(budget.held).toBe(10);
    expect(first.take(1)).toBe(false);
    first.release();
    expect(budget.held).toBe(4);
    first.release();
    expect(budget.held).toBe(4);
    expect(first.take(6)).toBe(true);
  });
});

describe('a body that does not arrive in time', () => {
  const server = serverWith({ rootToken: root, bodyTimeoutMs: 400 });

  it('is answered 408 and its connection closed; a body that arrives within the time is served', async () => {
    const slow = connect(server().url);
    slow.socket.write(head('/v1/secret/data/slow', 100, root) + kvBody(100).slice(0, 50));
    const prompt = connect(server().url);
    prompt.socket.write(head('/v1/secret/data/prompt', 100, root) + kvBody(100).slice(0, 50));
    setTimeout(() => prompt.socket.write(kvBody(100).slice(50)), 100);
    await expect.poll(() => prompt.status()).toBe(200);
    await expect.poll(() => slow.state.closed, { timeout: 3000 }).toBe(true);
    expect(slow.status()).toBe(408);
    expect(slow.state.received).toContain('request body did not arrive within 400 ms');
    prompt.socket.destroy();
  });
});

describe('connections', () => {
  const server = serverWith({ rootToken: root, maxConnections: 3 });

  it('are served up to maxConnections at once; one more is answered 503 and closed', async () => {
    const open = [connect(server().url), connect(server().url), connect(server().url)];
    for (const client of open) client.socket.write('GET /v1/sys/health HTTP/1.1\r\nHost: x\r\n\r\n');
    for (const client of open) await expect.poll(() => client.status()).toBe(200);
    const extra = connect(server().url);
    extra.socket.write('GET /v1/sys/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => extra.state.closed).toBe(true);
    expect(extra.status()).toBe(503);
    expect(extra.state.received).toContain('{"errors":["too many connections: this server serves at most 3 at once"]}');
    open[0]!.socket.destroy();
    // Once one is gone, a new connection takes its place.
    await expect
      .poll(async () => (await request(server().url, { path: '/v1/sys/health' }).catch(() => ({ status: 0 }))).status)
      .toBe(200);
    for (const client of open) client.socket.destroy();
  });
});

describe('the options', () => {
  it.each([
    ['maxUnauthenticatedBodyBytes', 'of bytes'],
    ['maxInflightBodyBytes', 'of bytes'],
    ['maxConnections', ''],
    ['bodyTimeoutMs', 'of milliseconds'],
    ['headersTimeoutMs', 'of milliseconds'],
    ['requestTimeoutMs', 'of milliseconds'],
  ])('refuse a %s that is not a positive number', (name, unit) => {
    for (const value of [0, -1, Number.NaN, '1' as unknown as number]) {
      expect(() => createServer({ [name]: value, log: () => undefined })).toThrow(
        new TypeError(`${name} must be a positive number${unit ? ` ${unit}` : ''}`),
      );
    }
  });

  it('refuse a budget smaller than one body', () => {
    expect(() => createServer({ maxBodyBytes: 2000, maxInflightBodyBytes: 1999, log: () => undefined })).toThrow(
      'maxInflightBodyBytes must be at least maxBodyBytes',
    );
    expect(() => createServer({ maxBodyBytes: 2000, maxInflightBodyBytes: 2000, log: () => undefined })).not.toThrow();
  });
});
