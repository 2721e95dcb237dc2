import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EncryptedStorage, KvEngine, MemoryStorage, type Storage } from '../../src/index.js';
import type { StorageWatchHandlers } from '../../src/ports/storage.js';

/** A MemoryStorage that notifies watchers of every write and delete, as a shared database's storage does. */
class NotifyingMemory extends MemoryStorage {
  private readonly watchers = new Set<{ prefix: string; handlers: StorageWatchHandlers }>();

  override async put(key: string, value: Uint8Array): Promise<void> {
    await super.put(key, value);
    this.notify(key);
  }

  override async delete(key: string): Promise<void> {
    await super.delete(key);
    this.notify(key);
  }

  async watch(prefix: string, handlers: StorageWatchHandlers) {
    const watcher = { prefix, handlers };
    this.watchers.add(watcher);
    return { close: async () => void this.watchers.delete(watcher) };
  }

  resetAll(): void {
    for (const { handlers } of this.watchers) handlers.reset();
  }

  private notify(key: string): void {
    for (const { prefix, handlers } of this.watchers) if (key.startsWith(prefix)) handlers.changed(key);
  }
}

/** Only the members of the Storage port, so the engine sees the plain interface. */
function withoutCommits(inner: NotifyingMemory): Storage {
  return {
    get: (key) => inner.get(key),
    put: (key, value) => inner.put(key, value),
    delete: (key) => inner.delete(key),
    list: (prefix) => inner.list(prefix),
    watch: (prefix, handlers) => inner.watch(prefix, handlers),
  };
}

describe('EncryptedStorage forwards change notifications', () => {
  it('offers watch only when the wrapped storage has it', () => {
    expect(new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) }).watch).toBeUndefined();
    expect(typeof new EncryptedStorage({ storage: new NotifyingMemory(), key: randomBytes(32) }).watch).toBe(
      'function',
    );
  });

  it('passes key names and resets through, and never the keyring of its own', async () => {
    const inner = new NotifyingMemory();
    const storage = new EncryptedStorage({ storage: withoutCommits(inner), key: randomBytes(32) });
    const changed: string[] = [];
    let resets = 0;
    const watch = await storage.watch!('', { changed: (key) => changed.push(key), reset: () => (resets += 1) });
    await storage.put('kv/a', new TextEncoder().encode('value'));
    await storage.delete('kv/a');
    inner.resetAll();
    await watch.close();
    await storage.put('kv/b', new TextEncoder().encode('late'));
    expect(changed).toEqual(['kv/a', 'kv/a']);
    expect(resets).toBe(1);
    expect(await inner.list('')).toContain('.encryption/');
  });

  it("lets a KV engine over it hear another engine's writes", async () => {
    const inner = new NotifyingMemory();
    const key = randomBytes(32);
    const writer = new KvEngine({ storage: new EncryptedStorage({ storage: withoutCommits(inner), key }) });
    const reader = new KvEngine({ storage: new EncryptedStorage({ storage: withoutCommits(inner), key }) });
    const seen: string[] = [];
    const stop = reader.subscribe('app/', (event) => seen.push(`${event.path} ${event.operation} v${event.version}`));
    await reader.watching();
    await writer.write('app/db', { password: 'p' });
    await expect.poll(() => seen).toEqual(['app/db write v1']);
    stop();
    await reader.stopWatching();
  });
});
