// What anonymous (and authenticated) traffic can make the server hold: connections are bounded. Each bound is tested at
// the limit and one past, through createServer's options.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server/index.js';
import { request, startServer, type Started } from './harness.js';

const root = 'sr.limits-root';
/** A raw connection to the server: write to it, read what came back, and see whether the server closed it. */
function connect(url: string) {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
  const state = { received: '', closed: false };
  socket.on('data', (chunk: Buffer) => (state.received += chunk.toString('latin1')));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => undefined);
  return { socket, state, status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(state.received)?.[1] ?? 0) };
}

describe('connections', () => {
  let started: Started;
  beforeAll(async () => {
    started = await startServer({ rootToken: root, maxConnections: 3 });
  });
  afterAll(() => started?.stop());

  it('are served up to maxConnections at once; one more is answered 503 and closed', async () => {
    const open = [connect(started.url), connect(started.url), connect(started.url)];
    for (const client of open) client.socket.write('GET /v1/sys/health HTTP/1.1\r\nHost: x\r\n\r\n');
    for (const client of open) await expect.poll(() => client.status()).toBe(200);
    const extra = connect(started.url);
    extra.socket.write('GET /v1/sys/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => extra.state.closed).toBe(true);
    expect(extra.status()).toBe(503);
    expect(extra.state.received).toContain('{"errors":["too many connections: this server serves at most 3 at once"]}');
    open[0]!.socket.destroy();
    // Once one is gone, a new connection takes its place.
    await expect.poll(async () => (await request(started.url, { path: '/v1/sys/health' }).catch(() => ({ status: 0 }))).status).toBe(200);
    for (const client of open) client.socket.destroy();
  });
});

describe('the options', () => {
  it.each([
    ['maxConnections', ''],
    ['headersTimeoutMs', 'of milliseconds'],
    ['requestTimeoutMs', 'of milliseconds'],
  ])('refuse a %s that is not a positive number', (name, unit) => {
    for (const value of [0, -1, Number.NaN, '1' as unknown as number]) {
      expect(() => createServer({ [name]: value, log: () => undefined })).toThrow(new TypeError(`${name} must be a positive number${unit ? ` ${unit}` : ''}`));
    }
  });
});
