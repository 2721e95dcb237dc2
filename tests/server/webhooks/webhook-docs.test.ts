// The receiver docs/server.md shows, run as written: it accepts what the server delivers and refuses a forged
// signature, so a user who copies it verifies deliveries correctly.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as netServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { request, startServer } from '../harness.js';

const root = new URL('../../../', import.meta.url).pathname;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function docsReceiver(): string {
  const docs = readFileSync(`${root}docs/server.md`, 'utf8');
  const start = docs.indexOf("```js\nimport { createHmac, timingSafeEqual } from 'node:crypto';");
  expect(start).toBeGreaterThan(0);
  const code = docs.slice(start + '```js\n'.length, docs.indexOf('```', start + 6));
  mkdirSync(`${root}.test-build`, { recursive: true });
  const file = `${root}.test-build/docs-receiver-${process.pid}.mjs`;
  writeFileSync(file, code);
  return file;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = netServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

describe("docs/server.md's webhook receiver", () => {
  it('accepts the deliveries of the server and refuses a forged signature', async () => {
    const secret = 'docs-receiver-secret-1234';
    const port = await freePort();
    const child = spawn(process.execPath, [docsReceiver()], {
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanup.push(() => child.kill());
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const server = await startServer({ webhookAllow: ['127.0.0.1'], webhookDelivery: { pollMs: 100, leaseMs: 2000 } });
    cleanup.push(() => server.stop());
    const send = (options: Parameters<typeof request>[1]) =>
      request(server.url, { token: server.rootToken, ...options });
    const hook = { url: `http://127.0.0.1:${port}/`, mount: 'secret/', secret };
    expect((await send({ method: 'POST', path: '/v1/sys/webhooks/docs', body: hook })).status).toBe(204);
    expect((await send({ method: 'POST', path: '/v1/secret/data/app/db', body: { data: { a: 'b' } } })).status).toBe(
      200,
    );
    for (const deadline = Date.now() + 10_000; !out.includes('app/db') && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(out).toMatch(/^[0-9a-f]{32} write app\/db 1\n$/);
    const forged = await request(`http://127.0.0.1:${port}`, {
      method: 'POST',
      path: '/',
      headers: {
        'X-Strongroom-Timestamp': String(Math.floor(Date.now() / 1000)),
        'X-Strongroom-Signature': 'sha256=00',
      },
      body: { path: 'app/db' },
    });
    expect(forged.status).toBe(401);
    expect((await send({ path: '/v1/sys/webhooks/docs/dead-letters' })).json.data.events).toEqual([]);
  });
});
