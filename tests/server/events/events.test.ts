// KV change events over Server-Sent Events: one event per committed change below the prefix, filtered by the
// subscriber's policies, never carrying a value.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from './events-stream.js';
import { request, startServer, type Started } from '../harness.js';

let started: Started;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: started.rootToken, ...options });

beforeAll(async () => {
  started = await startServer({ rootToken: 'sr.events' });
  await send({
    method: 'PUT',
    path: '/v1/sys/policies/acl/watcher',
    body: {
      policy:
        'path "sys/events/subscribe/secret" { capabilities = ["read"] }\npath "secret/metadata/app/public/*" { capabilities = ["read"] }',
    },
  });
});
afterAll(() => started?.stop());

const subscribe = (path: string, token: string) => openStream(started.url, path, token);

describe('GET /v1/sys/events/subscribe/secret', () => {
  it('streams one kv-change event per committed write below the prefix, filtered by policy, without values', async () => {
    const watcher = (await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: ['watcher'] } }))
      .json.auth.client_token;
    const stream = subscribe('/v1/sys/events/subscribe/secret?prefix=app/', watcher);
    await expect.poll(stream.text).toContain(': subscribed');
    expect(stream.contentType()).toBe('text/event-stream');
    await send({ method: 'POST', path: '/v1/secret/data/app/public/a', body: { data: { value: 'hidden-1' } } });
    await send({ method: 'POST', path: '/v1/secret/data/app/private/b', body: { data: { value: 'hidden-2' } } });
    await send({ method: 'POST', path: '/v1/secret/data/elsewhere/c', body: { data: { value: 'hidden-3' } } });
    await send({ method: 'DELETE', path: '/v1/secret/data/app/public/a' });
    await expect.poll(() => stream.text().split('event: kv-change').length - 1).toBe(2);
    expect(stream.events().map(({ path, operation, version }) => ({ path, operation, version }))).toEqual([
      { path: 'app/public/a', operation: 'write', version: 1 },
      { path: 'app/public/a', operation: 'delete', version: 1 },
    ]);
    expect(stream.text()).not.toContain('hidden');
    stream.close();
  });

  it('refuses a token without read on the subscription path, even with every other capability', async () => {
    const stream = subscribe('/v1/sys/events/subscribe/secret', 'sr.nobody');
    await expect.poll(stream.status).toBe(403);
    stream.close();
    const others = '"create", "update", "delete", "list", "sudo", "patch", "scan"';
    await send({
      method: 'PUT',
      path: '/v1/sys/policies/acl/all-but-read',
      body: { policy: `path "sys/events/subscribe/secret" { capabilities = [${others}] }` },
    });
    const token = (await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: ['all-but-read'] } }))
      .json.auth.client_token;
    const refused = subscribe('/v1/sys/events/subscribe/secret', token);
    await expect.poll(refused.status).toBe(403);
    refused.close();
  });

  it('stops delivering once the token is revoked', async () => {
    const watcher = (await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: ['watcher'] } }))
      .json.auth.client_token;
    const stream = subscribe('/v1/sys/events/subscribe/secret', watcher);
    await expect.poll(stream.text).toContain(': subscribed');
    await send({ method: 'POST', path: '/v1/auth/token/revoke', body: { token: watcher } });
    await send({ method: 'POST', path: '/v1/secret/data/app/public/z', body: { data: { v: 1 } } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.text()).not.toContain('kv-change');
    stream.close();
  });

  it('cuts off a subscriber that never reads, with a warning in the log, and keeps serving everyone else', async () => {
    const { port } = new URL(started.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `GET /v1/sys/events/subscribe/secret?prefix=flood/ HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${started.rootToken}\r\n\r\n`,
    );
    await new Promise((resolve) => socket.once('data', resolve));
    // From here on the client reads nothing: only the kernel's socket buffers and the server's own bound hold events.
    socket.pause();
    const slow = () => started.logs.find((entry) => entry.msg === 'event subscriber fell behind; stream closed');
    const long = 'x'.repeat(3000);
    for (let batch = 0; batch < 200 && !slow(); batch++) {
      const writes = Array.from({ length: 25 }, (_, n) =>
        send({ method: 'POST', path: `/v1/secret/data/flood/${long}/${batch}-${n}`, body: { data: { n } } }),
      );
      expect((await Promise.all(writes)).map((response) => response.status)).toEqual(Array(25).fill(200));
    }
    await expect.poll(slow, { timeout: 10_000 }).toBeDefined();
    expect(slow()).toMatchObject({ level: 'warn', prefix: 'flood/' });
    // The stream was cut: once the client reads again it gets what the kernel held, then the end.
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.resume();
    await ended;
    expect((await send({ method: 'GET', path: '/v1/sys/health' })).status).toBe(200);
  }, 60_000);
});
