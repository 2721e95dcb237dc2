// What change events cost: an open subscription resolves its token and policies once, so a KV write costs the same
// storage reads whatever the number of subscribers and the depth of their tokens' parent chains; and how many
// subscriptions a process keeps open, in all and per token (429 past either limit).
import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import type { ListPageOptions } from '../../../src/ports/storage.js';
import { createServer, type ServerOptions } from '../../../src/server/index.js';
import { PausedStorage } from '../../support/paused-storage.js';
import { testStorage } from '../../support/test-storage.js';
import { openStream, type EventStream } from './events-stream.js';
import { request, startServer, type Started } from '../harness.js';

/** Counts every read: what a change event costs shows up here, whatever the clock does. */
class CountingStorage extends MemoryStorage {
  reads = 0;
  override async get(key: string) {
    this.reads += 1;
    return super.get(key);
  }
  override async list(prefix: string) {
    this.reads += 1;
    return super.list(prefix);
  }
  override async listPage(prefix: string, options: ListPageOptions) {
    this.reads += 1;
    return super.listPage(prefix, options);
  }
}

const WATCHER = [
  'path "sys/events/subscribe/secret" { capabilities = ["read"] }',
  'path "secret/metadata/*" { capabilities = ["read"] }',
  'path "auth/token/create" { capabilities = ["update"] }',
].join('\n');

let started: Started | undefined;
const streams: EventStream[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await started?.stop();
  started = undefined;
});

async function serve(
  options: ServerOptions,
): Promise<Started & { send: (options: Parameters<typeof request>[1]) => ReturnType<typeof request> }> {
  started = await startServer({ rootToken: 'sr.fanout', ...options });
  const send = (sent: Parameters<typeof request>[1]) => request(started!.url, { token: 'sr.fanout', ...sent });
  expect((await send({ method: 'PUT', path: '/v1/sys/policies/acl/watcher', body: { policy: WATCHER } })).status).toBe(
    204,
  );
  return { ...started, send };
}

function subscribe(url: string, token: string): EventStream {
  const stream = openStream(url, '/v1/sys/events/subscribe/secret?prefix=fan/', token);
  streams.push(stream);
  return stream;
}

describe('the cost of a change event', () => {
  it('is the same few storage reads with 200 subscribers 200 tokens deep as with none', async () => {
    const storage = new CountingStorage();
    const { url, send } = await serve({
      storage,
      maxEventSubscriptions: 200,
      maxEventSubscriptionsPerToken: 1,
      eventRecheckMs: 3_600_000,
      // The audit device table is re-read in the background every auditRefreshMs: a read no change event causes.
      auditRefreshMs: 3_600_000,
      // So is the webhook deliverer's look for webhooks, and the periodic sweep.
      webhookDelivery: { pollMs: 3_600_000, leaseMs: 7_200_000 },
      periodicIntervalMs: 3_600_000,
    });
    const create = async (parent: string) =>
      (await send({ method: 'POST', path: '/v1/auth/token/create', token: parent, body: { policies: ['watcher'] } }))
        .json.auth.client_token as string;
    let parent = 'sr.fanout';
    for (let depth = 1; depth < 200; depth++) parent = await create(parent);
    // 200 siblings, each with 200 ancestors (the root token included).
    const tokens: string[] = [];
    for (let n = 0; n < 200; n++) tokens.push(await create(parent));

    const writeCost = async (label: string) => {
      const before = storage.reads;
      for (let n = 0; n < 5; n++)
        expect(
          (await send({ method: 'POST', path: `/v1/secret/data/fan/${label}-${n}`, body: { data: { n } } })).status,
        ).toBe(200);
      return storage.reads - before;
    };
    const alone = await writeCost('alone');

    const opened = tokens.map((token) => subscribe(url, token));
    await expect
      .poll(() => opened.filter((stream) => stream.text().includes(': subscribed')).length, { timeout: 15_000 })
      .toBe(200);
    const watched = await writeCost('watched');
    await expect
      .poll(() => opened.filter((stream) => stream.events().length === 5).length, { timeout: 15_000 })
      .toBe(200);
    expect(watched).toBe(alone);

    // At the limits: the 201st subscription in all, and a second one for a token, are refused.
    const past = await request(url, { path: '/v1/sys/events/subscribe/secret', token: await create('sr.fanout') });
    expect(past.status).toBe(429);
    expect(past.json).toEqual({ errors: ['too many event subscriptions: this server keeps at most 200 open'] });
    opened.pop()!.close();
    const again = subscribe(url, tokens[0]!);
    await expect.poll(again.status).toBe(429);
    expect(JSON.parse(again.text())).toEqual({
      errors: ['too many event subscriptions for this token: at most 1 open at once'],
    });
  }, 60_000);
});

describe('the limits on open subscriptions', () => {
  it('default to 16 per token and 256 in all', async () => {
    const { url, send } = await serve({});
    const token = async () =>
      (await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: ['watcher'] } })).json.auth
        .client_token as string;
    const first = await token();
    const sixteen = Array.from({ length: 16 }, () => subscribe(url, first));
    await expect.poll(() => sixteen.every((stream) => stream.status() === 200)).toBe(true);
    const seventeenth = subscribe(url, first);
    await expect.poll(seventeenth.status).toBe(429);
    for (let n = 1; n < 16; n++) {
      const next = await token();
      for (let m = 0; m < 16; m++) subscribe(url, next);
    }
    await expect.poll(() => streams.filter((stream) => stream.status() === 200).length, { timeout: 15_000 }).toBe(256);
    const past = subscribe(url, await token());
    await expect.poll(past.status).toBe(429);
    // A closed stream gives its place back.
    sixteen[0]!.close();
    const statusOf = async () => {
      const attempt = subscribe(url, first);
      await expect.poll(attempt.status).not.toBe(0);
      return attempt.status();
    };
    await expect.poll(statusOf, { interval: 50 }).toBe(200);
  }, 60_000);

  it('give back, within two recheck intervals, the place of a client that left before its stream began', async () => {
    const storage = new PausedStorage(testStorage());
    // An interval long enough that the second subscription below surely meets the held place (over PostgreSQL its
    // token lookup alone can take longer than 100 ms on a loaded machine), short enough to wait for twice.
    const RECHECK_MS = 1000;
    const { url, send } = await serve({ storage, maxEventSubscriptionsPerToken: 1, eventRecheckMs: RECHECK_MS });
    const watcher = (await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: ['watcher'] } }))
      .json.auth.client_token as string;
    // Before the subscription's own lookup (the third read of the token's entry), the request reads it twice: once to
    // tell an authenticated request's body budget, once for its permission check.
    let reads = 0;
    const held = storage.pause(
      (call) => call.name === 'get' && call.keys[0]!.startsWith('sys/token/id/') && ++reads === 3,
    );
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`GET /v1/sys/events/subscribe/secret HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${watcher}\r\n\r\n`);
    await held.reached;
    socket.destroy();
    // The place is held from the permission check on, while the subscription's own lookup is under way.
    const meanwhile = subscribe(url, watcher);
    await expect.poll(meanwhile.status).toBe(429);
    held.resume();
    // Whether the server sees the client gone when the stream would begin, or only at the recheck, the place comes
    // back within two intervals and the token subscribes again.
    const statusOf = async () => {
      const attempt = subscribe(url, watcher);
      await expect.poll(attempt.status).not.toBe(0);
      return attempt.status();
    };
    await expect.poll(statusOf, { timeout: 2 * RECHECK_MS + 500, interval: 50 }).toBe(200);
  });

  it('are positive integers', () => {
    for (const name of ['maxEventSubscriptions', 'maxEventSubscriptionsPerToken', 'eventRecheckMs'] as const) {
      for (const value of [0, -1, 1.5, Number.NaN, '8' as unknown as number]) {
        expect(() => createServer({ [name]: value, log: () => undefined })).toThrow(
          new TypeError(`${name} must be a positive integer`),
        );
      }
    }
  });
});
