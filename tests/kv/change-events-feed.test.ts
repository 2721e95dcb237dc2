// The change feed remembers the last event it delivered of a bounded number of keys, the most recently changed: enough
// to deliver each change once and in order when it learns of it twice, without a memory that grows with every key ever
// written (removed ones included).
import { describe, expect, it } from 'vitest';
import { ChangeFeed, TRACKED_KEYS } from '../../src/kv/changes/change-feed.js';
import type { KeyChange } from '../../src/kv/changes/change-events.js';
import type { KvChangeOperation } from '../../src/kv/documents/head-document.js';
import { KvEngine, type KvChangeEvent } from '../../src/kv/index.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';

const change = (path: string, revision: number, operation: KvChangeOperation = 'write'): KeyChange => ({
  path,
  operation,
  version: revision,
  revision,
  time: 0,
});

/** How many keys a feed remembers, counted from its own map. */
const tracked = (feed: ChangeFeed) => (feed as unknown as { delivered: Map<string, unknown> }).delivered.size;

function recorded() {
  const feed = new ChangeFeed(() => undefined);
  const events: KvChangeEvent[] = [];
  feed.subscribe('', (event) => events.push(event));
  const seen = () =>
    events.map(({ path, revision, operation }) => `${path}@${revision}${operation === 'write' ? '' : ` ${operation}`}`);
  return { feed, seen };
}

describe('the keys a change feed remembers', () => {
  it(`stay at ${TRACKED_KEYS} however many keys are written and deleted through the engine`, async () => {
    // A bound of the feed's memory, whatever the storage: 20,000 changes in memory, not through a database.
    const kv = new KvEngine({ storage: new MemoryStorage() });
    const events: string[] = [];
    kv.subscribe('', (event) => void events.push(event.path));
    const feed = (kv as unknown as { context: { feed: ChangeFeed } }).context.feed;
    for (let n = 0; n < TRACKED_KEYS; n++) {
      await kv.write(`k/${n}`, { n });
      await kv.deleteMetadata(`k/${n}`);
    }
    expect(tracked(feed)).toBe(TRACKED_KEYS);
    await kv.write('one/more', { n: 0 });
    expect(tracked(feed)).toBe(TRACKED_KEYS);
    expect(events).toHaveLength(2 * TRACKED_KEYS + 1);
    expect(feed.knownPaths()).toEqual(['one/more']);
  }, 60_000);

  it('are the most recently changed: a key changed again is kept, the oldest one is forgotten', () => {
    const { feed } = recorded();
    for (let n = 0; n < TRACKED_KEYS; n++) feed.deliver([change(`k${n}`, 1)]);
    feed.deliver([change('k0', 2)]);
    feed.acknowledge('k1', 5, 5);
    feed.deliver([change('new', 1)]);
    expect(tracked(feed)).toBe(TRACKED_KEYS);
    expect(feed.last('k0')).toEqual({ revision: 2, version: 2 });
    expect(feed.last('k1')).toEqual({ revision: 5, version: 5 });
    expect(feed.last('k2')).toBeUndefined();
    expect(feed.last('new')).toBeDefined();
  });

  it('count acknowledged keys too', () => {
    const { feed } = recorded();
    for (let n = 0; n <= TRACKED_KEYS; n++) feed.acknowledge(`k${n}`, 3, 1);
    expect(tracked(feed)).toBe(TRACKED_KEYS);
    expect(feed.last('k0')).toBeUndefined();
    expect(feed.last(`k${TRACKED_KEYS}`)).toEqual({ revision: 3, version: 1 });
  });
});

describe('delivering each change once, in order', () => {
  it('drops a change learnt twice and one older than the last delivered', () => {
    const { feed, seen } = recorded();
    feed.deliver([change('a', 1), change('a', 2)]);
    feed.deliverWatched([change('a', 1), change('a', 2), change('a', 3)]);
    feed.deliver([change('a', 3)]);
    feed.acknowledge('b', 4, 4);
    feed.deliverWatched([change('b', 4), change('b', 5)]);
    expect(seen()).toEqual(['a@1', 'a@2', 'a@3', 'b@5']);
  });

  it("holds back a watch's news at its starting point, never this process's own commit", () => {
    const { feed, seen } = recorded();
    feed.acknowledge('k', 2, 2);
    feed.deliver([change('k', 1), change('k', 2)]);
    feed.deliverWatched([change('k', 1), change('k', 2)]);
    feed.deliver([change('k', 2)]);
    feed.deliverWatched([change('k', 3)]);
    expect(seen()).toEqual(['k@1', 'k@2', 'k@3']);
    expect(feed.last('k')).toEqual({ revision: 3, version: 3 });
  });

  it('drops a removal learnt twice, and starts a new life for a key created again', () => {
    const { feed, seen } = recorded();
    feed.deliver([change('a', 1), change('a', 2)]);
    feed.deliver([change('a', 3, 'metadata-delete')]);
    feed.deliver([change('a', 3, 'metadata-delete')]);
    expect(feed.last('a')).toBeUndefined();
    expect(feed.knownPaths()).toEqual([]);
    feed.deliver([change('a', 1)]);
    expect(seen()).toEqual(['a@1', 'a@2', 'a@3 metadata-delete', 'a@1']);
    expect(feed.knownPaths()).toEqual(['a']);
  });

  it("delivers again what a forgotten key's history holds: at least once, never lost", () => {
    const { feed, seen } = recorded();
    feed.deliver([change('old', 1)]);
    for (let n = 0; n < TRACKED_KEYS; n++) feed.deliver([change(`k${n}`, 1)]);
    feed.deliver([change('old', 1), change('old', 2)]);
    expect(seen().filter((event) => event.startsWith('old'))).toEqual(['old@1', 'old@1', 'old@2']);
  });
});
