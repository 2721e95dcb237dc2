// Deliveries that fail: retried with backoff up to the last attempt, then kept as dead letters that a replay sends
// again; targets refused both when a webhook is written and when it is delivered (a webhook stored while its target was
// allowed, or a name that resolves to an internal address); redirects refused; a receiver that never answers delays
// only its own webhook.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/index.js';
import { request, startServer, type Started } from '../harness.js';
import { startReceiver, type Behaviour, type Receiver } from './receiver.js';

const SECRET = 'whsec-failures-0a1b2c3d';
const fast = { pollMs: 100, leaseMs: 2000, backoffMs: 100, maxBackoffMs: 400, attempts: 3, timeoutMs: 1500 };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function receiver(behaviour: Behaviour = 'ok'): Promise<Receiver> {
  const started = await startReceiver(SECRET, behaviour);
  cleanup.push(() => started.close());
  return started;
}

async function server(options: Parameters<typeof startServer>[0] = {}): Promise<Started> {
  const started = await startServer({ webhookAllow: ['127.0.0.1'], webhookDelivery: fast, ...options });
  cleanup.push(() => started.stop());
  return started;
}

const send = (to: Started, options: Parameters<typeof request>[1]) =>
  request(to.url, { token: to.rootToken, ...options });
const hook = (to: Started, name: string, url: string) =>
  send(to, { method: 'POST', path: `/v1/sys/webhooks/${name}`, body: { url, mount: 'secret/', secret: SECRET } });
const write = (to: Started, path: string) =>
  send(to, { method: 'POST', path: `/v1/secret/data/${path}`, body: { data: { v: 'x' } } });

async function deadLetters(to: Started, name: string, count: number): Promise<any[]> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    const answer = await send(to, { path: `/v1/sys/webhooks/${name}/dead-letters` });
    expect(answer.status).toBe(200);
    if (answer.json.data.events.length >= count) return answer.json.data.events;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${count} dead letters for ${name}`);
}

describe('webhook delivery failures', () => {
  it('retries with backoff, keeps a dead letter after the last attempt, and sends it again on replay', async () => {
    const target = await receiver('fail');
    const app = await server();
    expect((await hook(app, 'flaky', target.url)).status).toBe(204);
    expect((await write(app, 'app/db')).status).toBe(200);
    const [dead] = await deadLetters(app, 'flaky', 1);
    // Exactly the configured attempts, all of the same event, each signed afresh.
    expect(target.deliveries).toHaveLength(3);
    expect(new Set(target.deliveries.map((delivery) => delivery.id)).size).toBe(1);
    expect(target.deliveries.every((delivery) => delivery.verified)).toBe(true);
    expect(dead).toMatchObject({ attempts: 3, last_error: 'answered 500' });
    expect(dead.event).toMatchObject({ path: 'app/db', operation: 'write', version: 1, id: target.deliveries[0]!.id });

    target.behaviour = 'ok';
    const replayed = await send(app, { method: 'POST', path: '/v1/sys/webhooks/flaky/replay' });
    expect(replayed.json.data).toEqual({ replayed: 1 });
    const got = await target.received(4);
    expect(got[3]!.id).toBe(dead.event.id);
    expect((await send(app, { path: '/v1/sys/webhooks/flaky/dead-letters' })).json.data.events).toEqual([]);
    const bad = await send(app, { method: 'POST', path: '/v1/sys/webhooks/flaky/replay', body: { ids: { a: 1 } } });
    expect(bad.status).toBe(400);
  });

  it('refuses internal targets when written, unless allowed by host or CIDR', async () => {
    const target = await receiver();
    const strict = await server({ webhookAllow: [] });
    const port = new URL(target.url).port;
    for (const url of [
      target.url,
      `http://localhost:${port}/`,
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[::]/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:8.8.8.8]/',
    ]) {
      const answer = await hook(strict, 'internal', url);
      expect(answer.status, url).toBe(400);
      expect(answer.json.errors[0], url).toMatch(/internal address/);
    }
    const byHost = await server({ webhookAllow: ['localhost'] });
    expect((await hook(byHost, 'by-host', `http://localhost:${port}/`)).status).toBe(204);
    const byCidr = await server({ webhookAllow: ['127.0.0.0/8'] });
    expect((await hook(byCidr, 'by-cidr', target.url)).status).toBe(204);
  });

  it('checks the target again at delivery time, against the address actually connected to', async () => {
    const target = await receiver();
    const storage = new MemoryStorage();
    const port = new URL(target.url).port;
    // Written while the operator allowed loopback, by address and by name...
    const before = await server({ storage, webhookAllow: ['127.0.0.1', 'localhost'] });
    expect((await hook(before, 'literal', target.url)).status).toBe(204);
    expect((await hook(before, 'named', `http://localhost:${port}/hook`)).status).toBe(204);
    await before.stop();
    // ...and delivered after the allowance was withdrawn: the name resolves to loopback, refused at connection time.
    const after = await server({ storage, webhookAllow: [], rootToken: before.rootToken });
    expect((await write(after, 'app/db')).status).toBe(200);
    const [literal] = await deadLetters(after, 'literal', 1);
    const [named] = await deadLetters(after, 'named', 1);
    expect(literal.last_error).toMatch(/internal address/);
    expect(named.last_error).toMatch(/internal address/);
    expect(target.deliveries).toEqual([]);
  });

  it('refuses to follow a redirect', async () => {
    const target = await receiver('redirect');
    const app = await server();
    expect((await hook(app, 'moved', target.url)).status).toBe(204);
    await write(app, 'a');
    const [dead] = await deadLetters(app, 'moved', 1);
    expect(dead.last_error).toBe('redirect 302 refused');
    expect(target.deliveries.map((delivery) => delivery.path)).toEqual(['/hook', '/hook', '/hook']);
    expect(target.deliveries).toHaveLength(3);
  });

  it('lets a receiver that never answers delay only its own webhook', async () => {
    const stuck = await receiver('hang');
    const healthy = await receiver();
    const app = await server();
    expect((await hook(app, 'stuck', stuck.url)).status).toBe(204);
    expect((await hook(app, 'healthy', healthy.url)).status).toBe(204);
    for (const path of ['a', 'b', 'c']) await write(app, path);
    await stuck.received(1);
    const got = await healthy.received(3);
    expect(got.map((delivery) => delivery.body.path)).toEqual(['a', 'b', 'c']);
    // The held attempt ends at the timeout and counts as failed: the event is tried again.
    await stuck.received(2);
    const health = await send(app, { path: '/v1/sys/health' });
    expect(health.status).toBe(200);
  });

  it('forgets the queue of a webhook removed mid-delivery: made again, it sends only what follows', async () => {
    const stuck = await receiver('hang');
    const healthy = await receiver();
    const app = await server();
    expect((await hook(app, 'reused', stuck.url)).status).toBe(204);
    for (const path of ['a', 'b']) await write(app, path);
    await stuck.received(1);
    expect((await send(app, { method: 'DELETE', path: '/v1/sys/webhooks/reused' })).status).toBe(204);
    expect((await hook(app, 'reused', healthy.url)).status).toBe(204);
    await write(app, 'c');
    await healthy.received(1);
    // Past the stuck attempt's timeout, which must not put its event back in the queue.
    await new Promise((resolve) => setTimeout(resolve, fast.timeoutMs + 500));
    expect(healthy.deliveries.map((delivery) => delivery.body.path)).toEqual(['c']);
    expect(stuck.deliveries).toHaveLength(1);
    expect((await send(app, { path: '/v1/sys/webhooks/reused/dead-letters' })).json.data.events).toEqual([]);
  });
});
