// An idle change-event stream gets a comment line every 15 seconds, so that proxies do not close it; intervals are
// faked here, so the test waits for none of them.
import { afterEach, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { openStream } from './events-stream.js';
import { startServer, type Started } from '../harness.js';

let started: Started | undefined;
/** Waits for `done` with real timeouts: expect.poll would advance the faked intervals while it waits. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 5000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
afterEach(async () => {
  await started?.stop();
  vi.useRealTimers();
});

it('sends a keep-alive comment every 15 seconds, and none once the stream has ended', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  // MemoryStorage, not testStorage(): the test counts the intervals left, and a storage that watches (PostgreSQL) keeps
  // one of its own, its heartbeat.
  started = await startServer({ rootToken: 'sr.heartbeat', storage: new MemoryStorage() });
  const stream = openStream(started.url, '/v1/sys/events/subscribe/secret', 'sr.heartbeat');
  // The opening: a comment, and the id a reconnect before the first event resumes from.
  await until(() => /^: subscribed\n\nid: [0-9a-f]{12}-0\n\n$/.test(stream.text()));
  const opening = stream.text();
  vi.advanceTimersByTime(14_999);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(stream.text()).toBe(opening);
  vi.advanceTimersByTime(1);
  await until(() => stream.text().length > opening.length);
  expect(stream.text()).toBe(`${opening}: keep-alive\n\n`);
  vi.advanceTimersByTime(15_000);
  await until(() => stream.text().length > `${opening}: keep-alive\n\n`.length);
  expect(stream.text()).toBe(`${opening}: keep-alive\n\n: keep-alive\n\n`);
  // Closed, the stream's interval is cleared: only the HTTP server's own connection check is left.
  stream.close();
  await until(() => vi.getTimerCount() === 1);
});
