// SqliteStorage.watch across connections on one file: the change log's catch-up rule (a watch the log has left behind
// is told to reset, then goes on reporting), and its options. The common cases run in the conformance suite.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEPT_CHANGES } from '../../../src/adapters/storage/sqlite/sqlite-watch.js';
import { SqliteStorage } from '../../../src/sqlite.js';

const directory = mkdtempSync(join(tmpdir(), 'strongroom-sqlite-watch-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const encode = (text: string) => new TextEncoder().encode(text);

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('SqliteStorage.watch', () => {
  it('resets a watch whose unread changes the log dropped, then reports the next ones', async () => {
    const path = join(directory, 'behind.db');
    const watcher = new SqliteStorage({ path });
    const writer = new SqliteStorage({ path });
    const changed: string[] = [];
    let resets = 0;
    const watch = await watcher.watch('', { changed: (key) => changed.push(key), reset: () => resets++ });
    try {
      // One commit of more changes than the log keeps: no read between them, so the first ones are gone unread.
      const operations = Array.from({ length: KEPT_CHANGES + 50 }, (_, index) => ({
        type: 'put' as const,
        key: `bulk/${index}`,
        value: encode('x'),
      }));
      await writer.commit(operations);
      await until(() => resets === 1, 'the reset');
      expect(changed).toEqual([]);
      await writer.put('after', encode('1'));
      await until(() => changed.includes('after'), 'the change after the reset');
      expect(resets).toBe(1);
    } finally {
      await watch.close();
      await watcher.close();
      await writer.close();
    }
  });

  it('closing the storage ends its watches', async () => {
    const path = join(directory, 'closed.db');
    const watcher = new SqliteStorage({ path, watchIntervalMs: 10 });
    const writer = new SqliteStorage({ path });
    const changed: string[] = [];
    await watcher.watch('', { changed: (key) => changed.push(key), reset: () => undefined });
    await watcher.close();
    await writer.put('late', encode('1'));
    const marker: string[] = [];
    const second = new SqliteStorage({ path, watchIntervalMs: 10 });
    const watch = await second.watch('', { changed: (key) => marker.push(key), reset: () => undefined });
    await writer.put('marker', encode('1'));
    await until(() => marker.includes('marker'), 'the marker');
    expect(changed).toEqual([]);
    await watch.close();
    await second.close();
    await writer.close();
  });

  it.each([0, 5, 1.5, 60_001])('refuses watchIntervalMs %s', (watchIntervalMs) => {
    expect(() => new SqliteStorage({ path: join(directory, 'x.db'), watchIntervalMs })).toThrow(
      new TypeError('watchIntervalMs must be an integer from 10 to 60000'),
    );
  });
});
