// KV change events over Server-Sent Events: one event per committed change below the prefix, filtered by the
// subscriber's policies, never carrying a value.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type Started } from './harness.js';

let started: Started;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: started.rootToken, ...options });

beforeAll(async () => {
  started = await startServer({ rootToken: 'sr.events' });
  await send({ method: 'PUT', path: '/v1/sys/policies/acl/watcher', body: { policy: 'path "sys/events/subscribe/secret" { capabilities = ["read"] }\npath "secret/metadata/app/public/*" { capabilities = ["read"] }' } });
});
afterAll(() => started?.stop());

function subscribe(path: string, token: string) {
  const { port } = new URL(started.url);
  const received: string[] = [];
  let status = 0;
  let contentType = '';
  const req = http.get({ host: '127.0.0.1', port, path, headers: { 'X-Vault-Token': token, Accept: 'text/event-stream' } }, (res) => {
    status = res.statusCode ?? 0;
    contentType = String(res.headers['content-type']);
    res.on('data', (chunk: Buffer) => received.push(chunk.toString()));
  });
  req.on('error', () => undefined);
  return { text: () => received.join(''), status: () => status, contentType: () => contentType, close: () => req.destroy() };
}

describe('GET /v1/sys/events/subscribe/secret', () => {
  it('streams one kv-change event per committed write below the prefix, filtered by policy, without values', async () => {
    const watcher = (await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: ['watcher'] } })).json.auth.client_token;
    const stream = subscribe('/v1/sys/events/subscribe/secret?prefix=app/', watcher);
    await expect.poll(stream.text).toContain(': subscribed');
    expect(stream.contentType()).toBe('text/event-stream');
    await send({ method: 'POST', path: '/v1/secret/data/app/public/a', body: { data: { value: 'hidden-1' } } });
    await send({ method: 'POST', path: '/v1/secret/data/app/private/b', body: { data: { value: 'hidden-2' } } });
    await send({ method: 'POST', path: '/v1/secret/data/elsewhere/c', body: { data: { value: 'hidden-3' } } });
    await send({ method: 'DELETE', path: '/v1/secret/data/app/public/a' });
    await expect.poll(() => stream.text().split('event: kv-change').length - 1).toBe(2);
    const events = [...stream.text().matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!));
    expect(events.map(({ path, operation, version }) => ({ path, operation, version }))).toEqual([
      { path: 'app/public/a', operation: 'write', version: 1 },
      { path: 'app/public/a', operation: 'delete', version: 1 },
    ]);
    expect(stream.text()).not.toContain('hidden');
    stream.close();
  });

  it('refuses a token without read on the subscription path', async () => {
    const stream = subscribe('/v1/sys/events/subscribe/secret', 'sr.nobody');
    await expect.poll(stream.status).toBe(403);
    stream.close();
  });

  it('stops delivering once the token is revoked', async () => {
    const watcher = (await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: ['watcher'] } })).json.auth.client_token;
    const stream = subscribe('/v1/sys/events/subscribe/secret', watcher);
    await expect.poll(stream.text).toContain(': subscribed');
    await send({ method: 'POST', path: '/v1/auth/token/revoke', body: { token: watcher } });
    await send({ method: 'POST', path: '/v1/secret/data/app/public/z', body: { data: { v: 1 } } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.text()).not.toContain('kv-change');
    stream.close();
  });
});
