// sys/webhooks over real HTTP: a webhook is written and read back without its secret, each KV change it watches is
// POSTed, signed, to a loopback receiver (allowed by webhookAllow) that verifies the signature with node:crypto, and bad
// input and callers without sudo are refused without a change.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { request, startServer, type Started } from '../harness.js';
import { tokenWithPolicy } from '../policy-token.js';
import { startReceiver, type Receiver } from './receiver.js';

const SECRET = 'whsec-7f3a9c1e5b2d48a6';
const fast = { pollMs: 100, leaseMs: 2000, backoffMs: 100, maxBackoffMs: 400, attempts: 3, timeoutMs: 2000 };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function setUp(
  options: Parameters<typeof startServer>[0] = {},
): Promise<{ server: Started; receiver: Receiver }> {
  const receiver = await startReceiver(SECRET);
  cleanup.push(() => receiver.close());
  const server = await startServer({ webhookAllow: ['127.0.0.1'], webhookDelivery: fast, ...options });
  cleanup.push(() => server.stop());
  return { server, receiver };
}

const send = (server: Started, options: Parameters<typeof request>[1]) =>
  request(server.url, { token: server.rootToken, ...options });

describe('sys/webhooks', () => {
  it('keeps a webhook, shows it without its secret, lists and deletes it', async () => {
    const auditFile = join(mkdtempSync(join(tmpdir(), 'webhook-audit-')), 'audit.log');
    const { server, receiver } = await setUp({ auditFile });
    const body = { url: receiver.url, mount: 'secret', prefix: 'app/', events: ['write', 'delete'], secret: SECRET };
    expect((await send(server, { method: 'POST', path: '/v1/sys/webhooks/deploys', body })).status).toBe(204);
    const read = await send(server, { path: '/v1/sys/webhooks/deploys' });
    expect(read.status).toBe(200);
    expect(read.json.data).toMatchObject({
      name: 'deploys',
      url: receiver.url,
      mount: 'secret/',
      prefix: 'app/',
      events: ['write', 'delete'],
      secret_set: true,
    });
    expect(read.text).not.toContain(SECRET);
    // An update changes the fields given and keeps the secret.
    expect(
      (await send(server, { method: 'PUT', path: '/v1/sys/webhooks/deploys', body: { prefix: 'db/' } })).status,
    ).toBe(204);
    expect((await send(server, { path: '/v1/sys/webhooks/deploys' })).json.data).toMatchObject({
      prefix: 'db/',
      secret_set: true,
    });
    expect((await send(server, { method: 'LIST', path: '/v1/sys/webhooks' })).json.data.keys).toEqual(['deploys']);
    expect((await send(server, { method: 'DELETE', path: '/v1/sys/webhooks/deploys' })).status).toBe(204);
    expect((await send(server, { path: '/v1/sys/webhooks/deploys' })).status).toBe(404);
    const logged = JSON.stringify(server.logs);
    expect(logged).not.toContain(SECRET);
    const audited = readFileSync(auditFile, 'utf8');
    expect(audited).toContain('sys/webhooks/deploys');
    expect(audited).not.toContain(SECRET);
  });

  it('POSTs each change it watches, signed, once, with paths, versions and operation but no value', async () => {
    const { server, receiver } = await setUp();
    const body = { url: receiver.url, mount: 'secret/', prefix: 'app/', secret: SECRET };
    expect((await send(server, { method: 'POST', path: '/v1/sys/webhooks/app', body })).status).toBe(204);
    const write = (path: string, value: string) =>
      send(server, { method: 'POST', path: `/v1/secret/data/${path}`, body: { data: { password: value } } });
    expect((await write('app/db', 'hunter2-v1')).status).toBe(200);
    expect((await write('other/x', 'not-watched')).status).toBe(200);
    expect((await write('app/db', 'hunter2-v2')).status).toBe(200);
    expect((await send(server, { method: 'DELETE', path: '/v1/secret/data/app/db' })).status).toBe(204);
    const got = await receiver.received(3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.deliveries).toHaveLength(3);
    expect(got.every((delivery) => delivery.verified)).toBe(true);
    expect(got.map(({ body }) => [body.path, body.operation, body.version])).toEqual([
      ['app/db', 'write', 1],
      ['app/db', 'write', 2],
      ['app/db', 'delete', 2],
    ]);
    for (const delivery of got) {
      expect(delivery.body).toMatchObject({ webhook: 'app', mount: 'secret/', id: delivery.id });
      expect(Math.abs(delivery.timestamp - Date.now() / 1000)).toBeLessThan(60);
      expect(delivery.raw).not.toContain('hunter2');
    }
    expect(new Set(got.map((delivery) => delivery.id)).size).toBe(3);
  });

  it('delivers on every KV mount it names, each webhook only its own', async () => {
    const { server, receiver } = await setUp();
    const kv = { type: 'kv', options: { version: '2' } };
    expect((await send(server, { method: 'POST', path: '/v1/sys/mounts/team', body: kv })).status).toBe(204);
    const body = { url: receiver.url, mount: 'team/', secret: SECRET };
    expect((await send(server, { method: 'POST', path: '/v1/sys/webhooks/team', body })).status).toBe(204);
    await send(server, { method: 'POST', path: '/v1/secret/data/a', body: { data: { x: '1' } } });
    await send(server, { method: 'POST', path: '/v1/team/data/b', body: { data: { x: '1' } } });
    const [delivery] = await receiver.received(1);
    expect(delivery!.body).toMatchObject({ mount: 'team/', path: 'b', operation: 'write' });
  });

  it('refuses bad input with a 400 naming the field, never echoing the secret', async () => {
    const { server, receiver } = await setUp();
    const base = { url: receiver.url, mount: 'secret/', secret: SECRET };
    const cases: [string, unknown, RegExp][] = [
      ['a', { ...base, url: 'ftp://127.0.0.1/x' }, /http or https/],
      ['a', { ...base, url: 'not a url' }, /absolute http/],
      ['a', { ...base, url: 'http://user:pw@127.0.0.1/' }, /credentials/],
      ['a', { ...base, mount: 'nowhere/' }, /no KV version 2 mount/],
      ['a', { ...base, events: ['write', 'explode'] }, /"explode" is none of/],
      ['a', { ...base, secret: '' }, /secret/],
      ['a', { ...base, secret: { nested: SECRET } }, /secret/],
      ['a', { ...base, colour: 'red' }, /unknown field "colour"/],
      ['a', { url: receiver.url }, /needs "url", "mount" and "secret"/],
      ['-bad', base, /webhook name/],
      ['a', 'not an object', /JSON object/],
    ];
    for (const [name, body, message] of cases) {
      const answer = await send(server, { method: 'POST', path: `/v1/sys/webhooks/${name}`, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.errors.join(' ')).toMatch(message);
      expect(answer.text).not.toContain(SECRET);
    }
    expect((await send(server, { method: 'LIST', path: '/v1/sys/webhooks' })).status).toBe(404);
    expect((await send(server, { path: '/v1/sys/webhooks/missing/dead-letters' })).status).toBe(404);
    const replay = { method: 'POST', path: '/v1/sys/webhooks/missing/replay' };
    expect((await send(server, replay)).status).toBe(404);
  });

  it('needs sudo: a token with every other capability sees and changes nothing', async () => {
    const { server, receiver } = await setUp();
    const body = { url: receiver.url, mount: 'secret/', secret: SECRET };
    expect((await send(server, { method: 'POST', path: '/v1/sys/webhooks/kept', body })).status).toBe(204);
    const all = '["create", "read", "update", "delete", "list"]';
    const token = await tokenWithPolicy(
      (options) => send(server, options),
      'no-sudo',
      `path "sys/webhooks" { capabilities = ${all} }\npath "sys/webhooks/*" { capabilities = ${all} }`,
    );
    const as = (options: Parameters<typeof request>[1]) => request(server.url, { token, ...options });
    const refused = [
      await as({ method: 'LIST', path: '/v1/sys/webhooks' }),
      await as({ path: '/v1/sys/webhooks/kept' }),
      await as({ method: 'POST', path: '/v1/sys/webhooks/kept', body: { ...body, url: 'http://127.0.0.1:9/' } }),
      await as({ method: 'POST', path: '/v1/sys/webhooks/new', body }),
      await as({ method: 'DELETE', path: '/v1/sys/webhooks/kept' }),
      await as({ path: '/v1/sys/webhooks/kept/dead-letters' }),
      await as({ method: 'POST', path: '/v1/sys/webhooks/kept/replay' }),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect((await send(server, { path: '/v1/sys/webhooks/kept' })).json.data.url).toBe(receiver.url);
    expect((await send(server, { method: 'LIST', path: '/v1/sys/webhooks' })).json.data.keys).toEqual(['kept']);
  });

  it('writes nothing to storage while no webhook exists, and holds the lease only while one does', async () => {
    class CountingPuts extends MemoryStorage {
      puts: string[] = [];
      override async put(key: string, value: Uint8Array) {
        this.puts.push(key);
        return super.put(key, value);
      }
    }
    const storage = new CountingPuts();
    const { server, receiver } = await setUp({ storage, webhookDelivery: { ...fast, pollMs: 20 } });
    const lease = async () => (await storage.get('sys/webhooks/lease')) !== undefined;
    storage.puts.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(storage.puts).toEqual([]);
    expect(await lease()).toBe(false);

    const body = { url: receiver.url, mount: 'secret', prefix: 'app/', events: ['write'], secret: SECRET };
    expect((await send(server, { method: 'POST', path: '/v1/sys/webhooks/deploys', body })).status).toBe(204);
    await expect.poll(lease).toBe(true);
    expect((await send(server, { method: 'DELETE', path: '/v1/sys/webhooks/deploys' })).status).toBe(204);
    await expect.poll(lease).toBe(false);
  });
});
