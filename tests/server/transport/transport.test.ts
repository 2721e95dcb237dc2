// Transport hardening: TLS from a certificate file (with the same timeouts and bounds as plain HTTP), the warning for
// plain HTTP beyond loopback, slow clients cut off by the request timeout, and a client that disconnects mid-body
// logged as its own doing rather than a server fault.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../support/certificates.js';
import { builtCli, dataDir, request, startServer, type Started } from '../harness.js';

const dir = mkdtempSync(join(tmpdir(), 'strongroom-tls-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');

beforeAll(() => selfSignedCertificate(certFile, keyFile));

/** Runs `strongroom server` until its banner is complete; answers the banner and stops it. */
async function banner(
  env: Record<string, string>,
): Promise<{ text: string; url: string | undefined; code: number | null }> {
  const child = spawn(process.execPath, [await builtCli(), 'server'], {
    env: { ...process.env, PORT: '0', STRONGROOM_ROOT_TOKEN: 'sr.t', STRONGROOM_DATA_DIR: dataDir(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('VAULT_ADDR')) resolve();
    });
    child.on('exit', () => resolve());
  });
  const url = /listening on (https?:\/\/\S+)/.exec(text)?.[1];
  if (child.exitCode === null) {
    if (url)
      expect(
        (
          await request(url.replace('0.0.0.0', '127.0.0.1'), {
            path: '/v1/sys/health',
            tls: { ca: readFileSync(certFile) },
          })
        ).status,
      ).toBe(200);
    child.kill('SIGTERM');
  }
  return { text, url, code: await exited };
}

describe('TLS', () => {
  it('serves HTTPS from STRONGROOM_TLS_CERT_FILE and _KEY_FILE, LIST included', async () => {
    const started = await startServer({
      tls: { cert: readFileSync(certFile), key: readFileSync(keyFile) },
      rootToken: 'sr.tls',
    });
    try {
      expect(started.url).toMatch(/^https:/);
      const tls = { ca: readFileSync(certFile) };
      await request(started.url, {
        method: 'POST',
        path: '/v1/secret/data/a/b',
        token: 'sr.tls',
        body: { data: { x: 'y' } },
        tls,
      });
      expect(
        (await request(started.url, { method: 'LIST', path: '/v1/secret/metadata/a', token: 'sr.tls', tls })).json.data
          .keys,
      ).toEqual(['b']);
      await expect(request(started.url.replace('https', 'http'), { path: '/v1/sys/health' })).rejects.toThrow();
    } finally {
      await started.stop();
    }
  });

  it('bounds a client over TLS as over plain HTTP: a trickled head gets 408, one connection too many gets nothing', async () => {
    const started = await startServer({
      tls: { cert: readFileSync(certFile), key: readFileSync(keyFile) },
      rootToken: 'sr.tls',
      headersTimeoutMs: 300,
      maxConnections: 1,
    });
    try {
      const { port } = new URL(started.url);
      const slow = tls.connect({ port: Number(port), host: '127.0.0.1', ca: readFileSync(certFile) });
      let answer = '';
      slow.on('data', (chunk) => (answer += chunk));
      slow.on('error', () => undefined);
      const closed = new Promise((resolve) => slow.on('close', resolve));
      slow.write('GET /v1/sys/health HTTP/1.1\r\nHost: x\r\n');
      // While it holds the one connection allowed, another is not accepted.
      const extra = net.connect(Number(port), '127.0.0.1');
      extra.on('error', () => undefined);
      await new Promise((resolve) => extra.on('close', resolve));
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await started.stop();
    }
  });

  it('closes idle TLS connections when stopping, without waiting for their keep-alive to run out', async () => {
    const started = await startServer({
      tls: { cert: readFileSync(certFile), key: readFileSync(keyFile) },
      rootToken: 'sr.tls',
    });
    const { port } = new URL(started.url);
    const idle = tls.connect({ port: Number(port), host: '127.0.0.1', ca: readFileSync(certFile) });
    idle.on('error', () => undefined);
    let answer = '';
    idle.on('data', (chunk) => (answer += chunk));
    idle.write('GET /v1/sys/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => answer).toMatch(/^HTTP\/1\.1 200/);
    const closed = new Promise((resolve) => idle.on('close', resolve));
    const stopping = Date.now();
    await started.stop();
    await closed;
    // node:http's keep-alive timeout is 5 s: an idle connection it did not close itself would have lasted that long.
    expect(Date.now() - stopping).toBeLessThan(2500);
  });

  it('the command serves TLS and warns about plain HTTP beyond loopback only', async () => {
    const secure = await banner({
      HOST: '0.0.0.0',
      STRONGROOM_TLS_CERT_FILE: certFile,
      STRONGROOM_TLS_KEY_FILE: keyFile,
    });
    expect(secure.url).toMatch(/^https:\/\//);
    expect(secure.text).not.toContain('without TLS');
    const plain = await banner({ HOST: '0.0.0.0' });
    expect(plain.text).toContain('warning: listening on 0.0.0.0 without TLS');
    expect((await banner({ HOST: '127.0.0.1' })).text).not.toContain('without TLS');
    const half = await banner({ STRONGROOM_TLS_CERT_FILE: certFile });
    expect(half.code).toBe(1);
    expect(half.text).toContain('set both or neither');
  });
});

describe('slow and vanishing clients', () => {
  let started: Started;
  beforeAll(async () => {
    started = await startServer({ rootToken: 'sr.slow', requestTimeoutMs: 500, headersTimeoutMs: 400 });
  });
  afterAll(() => started?.stop());

  function connect(): Promise<net.Socket> {
    const { port } = new URL(started.url);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
    });
  }

  it('cuts off a body that trickles in past the request timeout with 408', async () => {
    const socket = await connect();
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(
      'POST /v1/secret/data/slow HTTP/1.1\r\nHost: x\r\nX-Vault-Token: sr.slow\r\nContent-Length: 100\r\n\r\n{"data":',
    );
    const timer = setInterval(() => socket.writable && socket.write(' '), 100);
    await closed;
    clearInterval(timer);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect((await request(started.url, { path: '/v1/secret/data/slow', token: 'sr.slow' })).status).toBe(404);
  });

  it('logs a client that disconnects mid-body as a closed connection, not a 500', async () => {
    const socket = await connect();
    socket.write(
      'POST /v1/secret/data/gone HTTP/1.1\r\nHost: x\r\nX-Vault-Token: sr.slow\r\nContent-Length: 100\r\n\r\n{"data":',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await expect.poll(() => started.logs.find((entry) => entry.path === '/v1/secret/data/gone')).toBeDefined();
    const entry = started.logs.find((line) => line.path === '/v1/secret/data/gone')!;
    expect(entry).toMatchObject({ level: 'info', status: 'client closed the connection' });
    expect(started.logs.filter((line) => line.level === 'error')).toEqual([]);
  });
});
