// Event ids and Last-Event-ID: each event of a stream has an id of its own, a stream opened with the last id it got
// resumes after it (nothing missed, nothing repeated), and an id the process cannot resume from opens the stream with a
// `reset` event. The same across two processes over one SQLite file: tests/durability/sqlite-events.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { KvEngine, MemoryStorage } from '../../../src/index.js';
import { EventLog, KEPT_EVENTS } from '../../../src/server/routes/event-log.js';
import { openStream, type EventStream } from './events-stream.js';
import { request, startServer, type Started } from '../harness.js';

const TOKEN = 'sr.resume-root';
const SUBSCRIBE = '/v1/sys/events/subscribe/secret?prefix=app/';
let started: Started | undefined;
const streams: EventStream[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await started?.stop();
});

const open = (url: string, headers: Record<string, string> = {}) => {
  const stream = openStream(url, SUBSCRIBE, TOKEN, headers);
  streams.push(stream);
  return stream;
};
const write = (url: string, path: string) =>
  request(url, { method: 'POST', path: `/v1/secret/data/${path}`, token: TOKEN, body: { data: { path } } });
const changes = (stream: EventStream) => stream.blocks().filter((block) => block.event === 'kv-change');
const paths = (stream: EventStream) => changes(stream).map((block) => JSON.parse(block.data!).path as string);

describe('event stream ids', () => {
  it('gives each event its own id, and a reconnect with Last-Event-ID gets exactly what it missed', async () => {
    started = await startServer({ rootToken: TOKEN });
    const { url } = started;
    const first = open(url);
    await expect.poll(() => first.blocks().length).toBe(1);
    expect(first.blocks()[0]).toEqual({ id: expect.stringMatching(/^[0-9a-f]{12}-\d+$/) });
    for (const path of ['app/one', 'app/two', 'other/no']) expect((await write(url, path)).status).toBe(200);
    await expect.poll(() => paths(first)).toEqual(['app/one', 'app/two']);
    const firstIds = changes(first).map((block) => block.id);
    first.close();

    for (const path of ['app/three', 'app/four']) await write(url, path);
    const second = open(url, { 'Last-Event-ID': firstIds.at(-1)! });
    await expect.poll(() => paths(second)).toEqual(['app/three', 'app/four']);
    await write(url, 'app/five');
    await expect.poll(() => paths(second)).toEqual(['app/three', 'app/four', 'app/five']);
    const ids = [...firstIds, ...changes(second).map((block) => block.id)];
    expect(new Set(ids).size).toBe(5);
    expect(second.blocks().some((block) => block.event === 'reset')).toBe(false);

    // A reconnect before any event resumes from the opening id.
    const idle = open(url);
    await expect.poll(() => idle.blocks().length).toBe(1);
    idle.close();
    await write(url, 'app/six');
    const after = open(url, { 'Last-Event-ID': idle.blocks()[0]!.id! });
    await expect.poll(() => paths(after)).toEqual(['app/six']);
  });

  it.each([
    ['another process', '0123456789ab-3'],
    ['no id at all', 'garbage\u00e9'],
  ])('opens with a reset event for an id from %s, then streams from now', async (_, id) => {
    started = await startServer({ rootToken: TOKEN });
    // Written before any stream: the log, which starts with the first, never numbered it.
    await write(started.url, 'app/before');
    const stream = open(started.url, { 'Last-Event-ID': id });
    await expect.poll(() => stream.blocks().length).toBe(1);
    const [reset] = stream.blocks();
    expect(reset).toEqual({
      event: 'reset',
      id: expect.stringMatching(/^[0-9a-f]{12}-0$/),
      data: '{"reason":"unknown"}',
    });
    await write(started.url, 'app/after');
    await expect.poll(() => paths(stream)).toEqual(['app/after']);
  });
});

describe('a resumed stream and authorization', () => {
  it('replays from the kept events only those the token may read, like the live ones', async () => {
    started = await startServer({ rootToken: TOKEN });
    const { url } = started;
    const policy =
      'path "sys/events/subscribe/secret" { capabilities = ["read"] }\npath "secret/metadata/app/mine/*" { capabilities = ["read"] }';
    expect(
      (await request(url, { method: 'PUT', path: '/v1/sys/policies/acl/mine', token: TOKEN, body: { policy } })).status,
    ).toBe(204);
    const created = await request(url, {
      method: 'POST',
      path: '/v1/auth/token/create',
      token: TOKEN,
      body: { policies: ['mine'] },
    });
    const less = created.json.auth.client_token as string;
    const first = openStream(url, SUBSCRIBE, less);
    streams.push(first);
    await expect.poll(() => first.blocks().length).toBe(1);
    const opening = first.blocks()[0]!.id!;
    first.close();
    for (const path of ['app/theirs/secret', 'app/mine/one', 'app/theirs/other', 'app/mine/two'])
      await write(url, path);
    const resumed = openStream(url, SUBSCRIBE, less, { 'Last-Event-ID': opening });
    streams.push(resumed);
    await expect.poll(() => paths(resumed)).toEqual(['app/mine/one', 'app/mine/two']);
    await write(url, 'app/theirs/later');
    await write(url, 'app/mine/three');
    await expect.poll(() => paths(resumed)).toEqual(['app/mine/one', 'app/mine/two', 'app/mine/three']);
    expect(
      resumed
        .blocks()
        .map((block) => block.data ?? '')
        .join(''),
    ).not.toContain('theirs');
  });
});

describe('EventLog', () => {
  it('resumes from any id whose later events it still keeps, and calls an older one expired', async () => {
    const kv = new KvEngine({ storage: new MemoryStorage() });
    const log = new EventLog(kv);
    await log.start();
    const first = log.resume(undefined).now;
    for (let n = 0; n <= KEPT_EVENTS; n++)
      await kv.handle({ method: 'POST', path: `data/k${n % 50}`, body: { data: {} } });
    expect(log.resume(first).start).toBe('expired');
    const name = first.split('-')[0];
    const oldestResumable = log.resume(`${name}-1`);
    expect(oldestResumable.start).toBe('resumed');
    expect(oldestResumable.backlog).toHaveLength(KEPT_EVENTS);
    expect(oldestResumable.backlog[0]!.id).toBe(`${name}-2`);
    expect(log.resume(`${name}-${KEPT_EVENTS + 2}`).start).toBe('unknown');
    expect(log.resume(log.resume(undefined).now)).toMatchObject({ start: 'resumed', backlog: [] });
  });
});
