// Change events between two engines over one storage that can watch, without a database: what one engine commits
// reaches the other's subscribers once each, in order; a key's record keeps its last 16 changes, which is what a
// catch-up after lost notifications delivers; and a catch-up finds the removals of the keys it knew.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { KvEngine, type KvChangeEvent } from '../../src/kv/index.js';
import type { StorageOperation, StorageWatchHandlers } from '../../src/ports/storage.js';

/** Tells its watchers every key a committed call changed, as a shared database does; `muted` loses the news. */
class AnnouncingStorage extends MemoryStorage {
  muted = false;
  /** Holds the answer of the next read of `key` (the value as it was when read) until `release` resolves. */
  held?: { key: string; reached: () => void; release: Promise<void> };
  /** Holds the answer of the next committed call that changes `key` (already changed, not yet announced). */
  heldCommit?: { key: string; reached: () => void; release: Promise<void> };
  private readonly handlers = new Set<{ prefix: string; handlers: StorageWatchHandlers }>();

  override async get(key: string) {
    const value = await super.get(key);
    const held = this.held;
    if (held?.key === key) {
      this.held = undefined;
      held.reached();
      await held.release;
    }
    return value;
  }

  async watch(prefix: string, handlers: StorageWatchHandlers) {
    const entry = { prefix, handlers };
    this.handlers.add(entry);
    return { close: async () => void this.handlers.delete(entry) };
  }

  /** The connection came back: notifications may have been lost. */
  reconnect(): void {
    for (const { handlers } of this.handlers) handlers.reset();
  }

  override async put(key: string, value: Uint8Array) {
    await super.put(key, value);
    this.announce([key]);
  }
  override async delete(key: string) {
    await super.delete(key);
    this.announce([key]);
  }
  override async compareAndPut(key: string, expected: Uint8Array | undefined, value: Uint8Array) {
    return this.announced(await super.compareAndPut(key, expected, value), [key]);
  }
  override async compareAndDelete(key: string, expected: Uint8Array) {
    return this.announced(await super.compareAndDelete(key, expected), [key]);
  }
  override async commit(operations: readonly StorageOperation[]) {
    return this.announced(
      await super.commit(operations),
      operations.map((operation) => operation.key),
    );
  }

  private async announced(done: boolean, keys: string[]): Promise<boolean> {
    const held = this.heldCommit;
    if (done && held && keys.includes(held.key)) {
      this.heldCommit = undefined;
      held.reached();
      await held.release;
    }
    if (done) this.announce(keys);
    return done;
  }

  announce(keys: string[]): void {
    if (this.muted) return;
    for (const { prefix, handlers } of this.handlers)
      for (const key of keys) if (key.startsWith(prefix)) handlers.changed(key);
  }
}

const engines: KvEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stopWatching();
});

async function pair() {
  const storage = new AnnouncingStorage();
  const writer = new KvEngine({ storage });
  const watcher = new KvEngine({ storage });
  engines.push(watcher);
  return { storage, writer, watcher };
}

async function watch(watcher: KvEngine) {
  const events: KvChangeEvent[] = [];
  watcher.subscribe('', (event) => void events.push(event));
  await watcher.watching();
  const seen = () => events.map(({ path, operation, revision }) => `${path}@${revision} ${operation}`);
  return { seen };
}

/** Lets notifications and the reads they start settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('changes another engine commits', () => {
  it('reach subscribers once each, in order; what existed before the watch is not replayed', async () => {
    const { writer, watcher } = await pair();
    await writer.write('old', { v: 0 });
    const { seen } = await watch(watcher);
    await writer.write('old', { v: 1 });
    await writer.write('new', { v: 1 });
    await writer.write('new', { v: 2 });
    await writer.deleteMetadata('old');
    await settle();
    expect(seen()).toEqual(['old@2 write', 'new@1 write', 'new@2 write', 'old@3 metadata-delete']);
    // The watcher's own changes are announced to it too, and still delivered once.
    await watcher.write('own', { v: 1 });
    await settle();
    expect(seen().filter((event) => event.startsWith('own'))).toEqual(['own@1 write']);
  });

  it('missed while notifications were lost are found by the catch-up: the last 16 of a key, and removals', async () => {
    const { storage, writer, watcher } = await pair();
    await writer.write('gone', { v: 0 });
    await writer.write('busy', { v: 0 });
    const { seen } = await watch(watcher);
    await writer.write('gone', { v: 1 });
    await settle();
    storage.muted = true;
    for (let n = 1; n <= 20; n++) await writer.write('busy', { v: n });
    await writer.write('born', { v: 1 });
    await writer.deleteMetadata('gone');
    await settle();
    expect(seen()).toEqual(['gone@2 write']);
    storage.muted = false;
    storage.reconnect();
    await settle();
    const busy = Array.from({ length: 16 }, (_, n) => `busy@${n + 6} write`);
    expect(seen().filter((event) => event.startsWith('busy'))).toEqual(busy);
    expect(seen().filter((event) => !event.startsWith('busy'))).toEqual([
      'gone@2 write',
      'born@1 write',
      'gone@3 metadata-delete',
    ]);
  });

  it('a change this engine delivers while it reads the key for a notification is not followed by the older state read', async () => {
    const storage = new AnnouncingStorage();
    const kv = new KvEngine({ storage });
    engines.push(kv);
    const { seen } = await watch(kv);
    storage.muted = true;
    await kv.write('k', { v: 1 });
    let reached!: () => void;
    let release!: () => void;
    const read = new Promise<void>((resolve) => (reached = resolve));
    storage.held = { key: 'kv/metadata/k', reached, release: new Promise((resolve) => (release = resolve)) };
    // The catch-up reads k as written; the delete is committed and delivered before that read is answered.
    storage.reconnect();
    await read;
    await kv.deleteMetadata('k');
    release();
    await settle();
    expect(seen()).toEqual(['k@1 write', 'k@2 metadata-delete']);
  });
});

describe('a commit answered while the watch reads its starting point', () => {
  /** Starts a write of `k` and holds its answer once committed; the watch then starts and reads `k` as committed. */
  async function writtenDuringStart(kv: KvEngine, storage: AnnouncingStorage) {
    let reached!: () => void;
    let release!: () => void;
    const committed = new Promise<void>((resolve) => (reached = resolve));
    storage.heldCommit = { key: 'kv/metadata/k', reached, release: new Promise((resolve) => (release = resolve)) };
    const write = kv.write('k', { v: 'during' });
    await committed;
    const events: string[] = [];
    kv.subscribe('', (event) => void events.push(`${event.path}@${event.revision} ${event.operation}`));
    await kv.watching();
    release();
    await write;
    await settle();
    return events;
  }

  it('is delivered once to the subscribers who were there when it was answered', async () => {
    const storage = new AnnouncingStorage();
    const kv = new KvEngine({ storage });
    engines.push(kv);
    expect(await writtenDuringStart(kv, storage)).toEqual(['k@1 write']);
  });

  it('is delivered once when it creates again a key that was removed', async () => {
    const storage = new AnnouncingStorage();
    const kv = new KvEngine({ storage });
    engines.push(kv);
    await kv.write('k', { v: 'first life' });
    await kv.deleteMetadata('k');
    expect(await writtenDuringStart(kv, storage)).toEqual(['k@1 write']);
  });
});

describe('a read that fails while following another engine', () => {
  /** Fails every read of key records once `failing` is set, as a database that went away would. */
  class FailingReads extends AnnouncingStorage {
    failing = false;
    override async get(key: string) {
      if (this.failing && key.includes('metadata')) throw new Error('storage read failed');
      return super.get(key);
    }
  }

  it('reaches onEventError, after a notification and after a catch-up, and never becomes an unhandled rejection', async () => {
    const storage = new FailingReads();
    const errors: unknown[] = [];
    const writer = new KvEngine({ storage });
    const watcher = new KvEngine({ storage, onEventError: (error) => void errors.push(error) });
    engines.push(watcher);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await writer.write('key', { v: 1 });
      await watch(watcher);
      storage.failing = true;
      // Notifications may have been lost: the catch-up reads every key again, and the read of `key` fails.
      storage.reconnect();
      await settle();
      expect(errors).toHaveLength(1);
      // A change announced as another process's commit would be: its read fails too.
      storage.announce(['kv/metadata/key']);
      await settle();
      expect(errors).toHaveLength(2);
      expect(unhandled).toEqual([]);
      // The key store reports a failed read as an InternalError whose cause is the storage's own error.
      const causes = errors.map((error) =>
        error instanceof Error && error.cause instanceof Error ? error.cause.message : error,
      );
      expect(new Set(causes)).toEqual(new Set(['storage read failed']));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
