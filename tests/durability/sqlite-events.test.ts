// Change events across two `strongroom server` processes on one data directory (one SQLite file): a subscriber of one
// hears the other's writes, each event with an id of its own, and a subscriber whose connection dropped resumes with
// Last-Event-ID: nothing missed, nothing repeated. An id from the other process opens the stream with a `reset` event.
import { describe, expect, it } from 'vitest';
import { dataDir, request } from '../server/harness.js';
import { openStream, type EventStream } from '../server/events/events-stream.js';
import { useServerProcesses } from './server-process.js';

const ROOT = 'sr.sqlite-events-root';
const SUBSCRIBE = '/v1/sys/events/subscribe/secret?prefix=app/';

const changes = (stream: EventStream) => stream.blocks().filter((block) => block.event === 'kv-change');
/**
 * The paths of a stream's events, sorted: events of different keys come in the order this process learnt of them, which
 * for the other process's writes is a read of the change log later. Sorted, a repeated event still shows.
 */
const paths = (stream: EventStream) =>
  changes(stream)
    .map((block) => JSON.parse(block.data!).path as string)
    .sort();

describe('two servers on one SQLite file', () => {
  const { start } = useServerProcesses();

  it("a subscriber of one hears the other's writes, and resumes after a dropped connection", async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_TOKEN: ROOT };
    const a = await start(env);
    const b = await start(env);
    const write = async (url: string, path: string) =>
      expect(
        (await request(url, { method: 'POST', path: `/v1/secret/data/${path}`, token: ROOT, body: { data: { path } } }))
          .status,
      ).toBe(200);
    const streams: EventStream[] = [];
    const subscribe = (url: string, headers: Record<string, string> = {}) => {
      const stream = openStream(url, SUBSCRIBE, ROOT, headers);
      streams.push(stream);
      return stream;
    };
    try {
      const first = subscribe(a.url);
      await expect.poll(() => first.blocks().length).toBe(1);
      await write(b.url, 'app/one');
      await write(a.url, 'app/two');
      await write(b.url, 'other/no');
      await expect.poll(() => paths(first), { timeout: 10_000 }).toEqual(['app/one', 'app/two']);
      const seen = changes(first).map((block) => block.id!);
      first.close();

      await write(b.url, 'app/three');
      await write(a.url, 'app/four');
      await write(b.url, 'app/five');
      const second = subscribe(a.url, { 'Last-Event-ID': seen.at(-1)! });
      await expect.poll(() => paths(second), { timeout: 10_000 }).toEqual(['app/five', 'app/four', 'app/three']);
      await write(b.url, 'app/six');
      await expect
        .poll(() => paths(second), { timeout: 10_000 })
        .toEqual(['app/five', 'app/four', 'app/six', 'app/three']);
      const ids = [...seen, ...changes(second).map((block) => block.id!)];
      expect(new Set(ids).size).toBe(6);

      // A's ids mean nothing to B: its stream says so, then streams from now.
      const foreign = subscribe(b.url, { 'Last-Event-ID': seen.at(-1)! });
      await expect.poll(() => foreign.blocks().length).toBe(1);
      expect(foreign.blocks()[0]).toMatchObject({ event: 'reset', data: '{"reason":"unknown"}' });
      await write(a.url, 'app/seven');
      await expect.poll(() => paths(foreign), { timeout: 10_000 }).toEqual(['app/seven']);
    } finally {
      for (const stream of streams) stream.close();
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);
});
