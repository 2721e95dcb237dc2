// An open change-event stream follows its token and policies: a revocation ends it, a policy change that takes read
// away stops the events it covers (and ends the stream when it takes the subscription itself away), and an expired
// token's stream ends at its expiry. In this process at once; from another process over the same storage within the
// recheck interval.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStorage } from '../../support/test-storage.js';
import { openStream, type EventStream } from './events-stream.js';
import { request, startServer, type Started } from '../harness.js';

const ROOT = 'sr.revocation';
const SUBSCRIBE = 'path "sys/events/subscribe/secret" { capabilities = ["read"] }';
const READ_APP = 'path "secret/metadata/app/*" { capabilities = ["read"] }';
const READ_OPEN = 'path "secret/metadata/open/*" { capabilities = ["read"] }';
const CREATE = 'path "auth/token/create" { capabilities = ["update"] }';

const storage = testStorage();
let here: Started;
let other: Started;
const streams: EventStream[] = [];

beforeAll(async () => {
  // `here` serves the streams and rechecks them every 200 ms; `other` is a second process over the same storage.
  [here, other] = await Promise.all([
    startServer({ storage, rootToken: ROOT, eventRecheckMs: 200 }),
    startServer({ storage, rootToken: ROOT }),
  ]);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await Promise.all([here?.stop(), other?.stop()]);
});

const send = (server: Started, options: Parameters<typeof request>[1]) =>
  request(server.url, { token: ROOT, ...options });
let names = 0;
async function policy(server: Started, name: string, ...rules: string[]): Promise<void> {
  expect(
    (await send(server, { method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy: rules.join('\n') } }))
      .status,
  ).toBe(204);
}
async function token(server: Started, body: Record<string, unknown>, parent = ROOT): Promise<string> {
  const created = await send(server, { method: 'POST', path: '/v1/auth/token/create', token: parent, body });
  expect(created.status).toBe(200);
  return created.json.auth.client_token;
}
/** A token with a policy of its own (`rules`), and its open stream over every key. */
async function watcher(...rules: string[]): Promise<{ name: string; token: string; stream: EventStream }> {
  const name = `watcher-${++names}`;
  await policy(here, name, ...rules);
  const created = await token(here, { policies: [name] });
  const stream = openStream(here.url, '/v1/sys/events/subscribe/secret', created);
  streams.push(stream);
  await expect.poll(stream.text).toContain(': subscribed');
  return { name, token: created, stream };
}
const write = (server: Started, path: string) =>
  send(server, { method: 'POST', path: `/v1/secret/data/${path}`, body: { data: { at: path } } });
const paths = (stream: EventStream) => stream.events().map((event) => event.path);

describe('revocation', () => {
  it('in this process ends the stream at once, without waiting for an event', async () => {
    const { token: revoked, stream } = await watcher(SUBSCRIBE, READ_APP);
    expect((await send(here, { method: 'POST', path: '/v1/auth/token/revoke', body: { token: revoked } })).status).toBe(
      204,
    );
    await expect.poll(stream.ended).toBe(true);
  });

  it("of a parent ends its children's streams, and a token's last use ends its stream", async () => {
    await policy(here, 'parent', SUBSCRIBE, READ_APP, CREATE);
    const parent = await token(here, { policies: ['parent'] });
    const child = await token(here, { policies: ['parent'] }, parent);
    const childStream = openStream(here.url, '/v1/sys/events/subscribe/secret', child);
    streams.push(childStream);
    await expect.poll(childStream.text).toContain(': subscribed');
    await send(here, { method: 'POST', path: '/v1/auth/token/revoke-self', token: parent });
    await expect.poll(childStream.ended).toBe(true);

    const twice = await token(here, { policies: ['parent'], num_uses: 2 });
    const limited = openStream(here.url, '/v1/sys/events/subscribe/secret', twice);
    streams.push(limited);
    await expect.poll(limited.text).toContain(': subscribed');
    expect((await send(here, { path: '/v1/auth/token/lookup-self', token: twice })).status).toBe(200);
    await expect.poll(limited.ended).toBe(true);
  });

  it('in another process over the same storage ends the stream within the recheck interval', async () => {
    const { token: revoked, stream } = await watcher(SUBSCRIBE, READ_APP);
    expect(
      (await send(other, { method: 'POST', path: '/v1/auth/token/revoke', body: { token: revoked } })).status,
    ).toBe(204);
    await expect.poll(stream.ended, { timeout: 2000 }).toBe(true);
  });
});

describe('a policy change', () => {
  it('in this process stops the events whose read it takes away from the moment it is answered', async () => {
    const { name, stream } = await watcher(SUBSCRIBE, READ_APP, READ_OPEN);
    await write(here, 'app/before');
    await expect.poll(() => paths(stream)).toEqual(['app/before']);
    await policy(here, name, SUBSCRIBE, READ_OPEN);
    await write(here, 'app/after');
    await write(here, 'open/after');
    await expect.poll(() => paths(stream)).toEqual(['app/before', 'open/after']);
    // Deleting the policy takes the subscription itself away: the stream ends.
    expect((await send(here, { method: 'DELETE', path: `/v1/sys/policies/acl/${name}` })).status).toBe(204);
    await expect.poll(stream.ended).toBe(true);
  });

  it('that grants read on more keys lets their events through', async () => {
    const { name, stream } = await watcher(SUBSCRIBE);
    await write(here, 'app/hidden');
    await policy(here, name, SUBSCRIBE, READ_APP);
    await write(here, 'app/shown');
    await expect.poll(() => paths(stream)).toEqual(['app/shown']);
  });

  it('in another process reaches the stream within the recheck interval', async () => {
    const { name, stream } = await watcher(SUBSCRIBE, READ_APP, READ_OPEN);
    await policy(other, name, SUBSCRIBE, READ_OPEN);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await write(here, 'app/elsewhere');
    await write(here, 'open/elsewhere');
    await expect.poll(() => paths(stream)).toEqual(['open/elsewhere']);
    await policy(other, name, READ_OPEN);
    await expect.poll(stream.ended, { timeout: 2000 }).toBe(true);
  });
});

describe('expiry', () => {
  it("ends an expired token's stream at its expiry, and a renewed token's stream lives on", async () => {
    // Far from the recheck interval: only the expiry itself can end these streams in time.
    const patient = await startServer({ storage, rootToken: ROOT, eventRecheckMs: 3_600_000 });
    try {
      await policy(
        patient,
        'expiring',
        SUBSCRIBE,
        READ_APP,
        'path "auth/token/renew-self" { capabilities = ["update"] }',
      );
      const [short, renewed] = await Promise.all([
        token(patient, { policies: ['expiring'], ttl: '2s' }),
        token(patient, { policies: ['expiring'], ttl: '2s' }),
      ]);
      const opened = Date.now();
      const [ending, living] = [short, renewed].map((value) =>
        openStream(patient.url, '/v1/sys/events/subscribe/secret', value),
      );
      streams.push(ending!, living!);
      await expect.poll(() => ending!.text() + living!.text()).toMatch(/subscribed[^]*subscribed/);
      expect(
        (
          await send(patient, {
            method: 'POST',
            path: '/v1/auth/token/renew-self',
            token: renewed,
            body: { increment: '1h' },
          })
        ).status,
      ).toBe(200);
      await expect.poll(ending!.ended, { timeout: 4000 }).toBe(true);
      expect(Date.now() - opened).toBeGreaterThanOrEqual(1500);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(living!.ended()).toBe(false);
    } finally {
      await patient.stop();
    }
  });

  it("of a parent ends its child's stream within the recheck interval", async () => {
    await policy(here, 'short-parent', SUBSCRIBE, READ_APP, CREATE);
    const parent = await token(here, { policies: ['short-parent'], ttl: '1s' });
    const child = await token(here, { policies: ['short-parent'], ttl: '1h' }, parent);
    const stream = openStream(here.url, '/v1/sys/events/subscribe/secret', child);
    streams.push(stream);
    await expect.poll(stream.text).toContain(': subscribed');
    await expect.poll(stream.ended, { timeout: 3000 }).toBe(true);
  });
});
