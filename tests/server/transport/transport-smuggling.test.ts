// Request smuggling through the LIST shim, as the review ran it: a proxy that shares one upstream connection among its
// clients forwards an attacker's request and then another client's on it. The attacker's Content-Length is padded
// with zeros past the 8 KiB the shim once read of a line, so the shim took it for 0 and node:http for N; the body's
// LIST lines were then rewritten, each rewrite adding 9 bytes, and the bytes pushed past the body's end became a
// DELETE that node:http ran with the next client's token.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type Started } from '../harness.js';

let started: Started;
const rootToken = 'sr.smuggling-victim-root';

beforeAll(async () => {
  started = await startServer({ rootToken });
});
afterAll(() => started?.stop());

/** Sends the bytes a proxy forwards on one kept-alive connection; answers what came back before the server closed. */
async function forward(bytes: string): Promise<string> {
  const { port } = new URL(started.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(bytes);
  // A proxy keeps the connection open; the server answers, then closes it or lets it idle.
  await new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    setTimeout(() => resolve(), 1500).unref();
  });
  socket.destroy();
  return received;
}

const victim = `GET /v1/secret/data/app HTTP/1.1\r\nHost: vault\r\nX-Vault-Token: ${rootToken}\r\n\r\n`;
const statuses = (answers: string) => [...answers.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));

describe("an attacker's request cannot reach into the next client's", () => {
  beforeAll(async () => {
    for (const name of ['app', 'victim']) {
      const written = await request(started.url, {
        method: 'POST',
        path: `/v1/secret/data/${name}`,
        token: rootToken,
        body: { data: { keep: 'me' } },
      });
      expect(written.status).toBe(200);
    }
  });

  it('with a Content-Length padded past 8 KiB: refused with 400, the connection closed, nothing deleted', async () => {
    const smuggled = 'DELETE /v1/secret/metadata/victim HTTP/1.1\r\nHost: vault\r\nX-Pad: ';
    const padded = smuggled + 'a'.repeat((9 - (smuggled.length % 9)) % 9);
    // Each LIST line rewritten adds 9 bytes, so this many push exactly the smuggled head past the body's end.
    const body = 'LIST /v1/x HTTP/1.1\r\nHost: vault\r\n\r\n'.repeat(padded.length / 9) + padded;
    const attacker = `POST /v1/sys/health HTTP/1.1\r\nHost: vault\r\nContent-Length: ${'0'.repeat(9000)}${body.length}\r\n\r\n${body}`;

    const answers = await forward(attacker + victim);

    expect(statuses(answers)).toEqual([400]);
    expect(answers).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\n\r\n$/);
    const metadata = await request(started.url, { path: '/v1/secret/metadata/victim', token: rootToken });
    expect(metadata.status).toBe(200);
    expect(started.logs.filter((entry) => entry.method === 'DELETE')).toEqual([]);
  });

  it('with a Transfer-Encoding padded past 8 KiB: refused with 400', async () => {
    const chunk = '\r\nLIST /v1/x HTTP/1.1\r\nHost: vault\r\n\r\n';
    const attacker = `POST /v1/sys/health HTTP/1.1\r\nHost: vault\r\nTransfer-Encoding:${' '.repeat(9000)}chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`;
    expect(statuses(await forward(attacker + victim))).toEqual([400]);
  });

  it('while the same two clients, well behaved, are both served on the shared connection', async () => {
    const list = `LIST /v1/secret/metadata/ HTTP/1.1\r\nHost: vault\r\nX-Vault-Token: ${rootToken}\r\nContent-Length: 26\r\n\r\nLIST /v1/not/a/request/ \r\n`;
    const answers = await forward(list + victim);
    expect(statuses(answers)).toEqual([200, 200]);
    expect(answers).toContain('"keys":["app","victim"]');
    expect(answers).toContain('"keep":"me"');
  });
});

describe('a GET with a body keeps the connection in step', () => {
  // The server skips reading the body of a request whose head declares none; one that declares a body is read whole,
  // so that its bytes, here a request of their own, are never taken for the next request on the connection.
  const get = (path: string, extra = '', body = '') =>
    `GET /v1/secret/data/${path} HTTP/1.1\r\nHost: vault\r\nX-Vault-Token: ${rootToken}\r\n${extra}\r\n${body}`;
  const inner = `DELETE /v1/secret/metadata/victim HTTP/1.1\r\nHost: vault\r\nX-Vault-Token: ${rootToken}\r\n\r\n`;

  it('declared by Content-Length or chunked, between bodiless GETs: each answered once, the body never run', async () => {
    const chunked = `${inner.length.toString(16)}\r\n${inner}\r\n0\r\n\r\n`;
    const answers = await forward(
      get('app') +
        get('app', `Content-Length: ${inner.length}\r\n`, inner) +
        get('victim', 'Transfer-Encoding: chunked\r\n', chunked) +
        get('victim', 'Connection: close\r\n'),
    );
    expect(statuses(answers)).toEqual([200, 200, 200, 200]);
    expect(started.logs.filter((entry) => entry.method === 'DELETE')).toEqual([]);
  });
});

it('a GET declaring a body over the limit gets 413 and the connection closed, as any request would', async () => {
  const answers = await forward(`GET /v1/secret/data/app HTTP/1.1\r\nHost: vault\r\nContent-Length: 999999999\r\n\r\n`);
  expect(statuses(answers)).toEqual([413]);
  expect(answers).toMatch(/\r\nConnection: close\r\n/i);
});
