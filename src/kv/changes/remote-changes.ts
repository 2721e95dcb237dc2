import { KeyedMutex } from '../../core/store/lock.js';
import type { Storage, StorageWatch } from '../../ports/storage.js';
import { changesOf, removalChange } from './change-events.js';
import type { ChangeFeed } from './change-feed.js';
import type { KeyPages } from '../store/key-pages.js';
import type { KeyStore } from '../store/key-store.js';
import type { StorageLayout } from '../documents/storage-layout.js';
import type { StoredMetadata } from '../documents/head-document.js';
import type { Clock } from '../../ports/clock.js';

/**
 * Change events made by other processes, over a storage that can `watch`. A notification names a key's record; the
 * record's own history of recent changes (committed with each change) gives the events, and the feed drops those
 * already delivered. When notifications may have been lost, every key is read again (a catch-up), so each change is
 * delivered as long as its key's history still holds it. Reads of one key run one at a time, in order.
 */
export class RemoteChanges {
  private watch?: Promise<StorageWatch | undefined>;
  private readonly mutex = new KeyedMutex();
  /** Keys notified while the baseline is read: reconciled once it is. */
  private queued?: Set<string>;

  private readonly keys: KeyStore;
  private readonly pages: KeyPages;
  private readonly feed: ChangeFeed;
  private readonly clock: () => number;

  constructor(
    private readonly storage: Storage,
    private readonly layout: StorageLayout,
    engine: { keys: KeyStore; pages: KeyPages; feed: ChangeFeed; clock: Clock },
    /** Where a failure of the work a notification starts goes: nobody awaits that work, so it must not reject. */
    private readonly onError: (error: unknown) => void,
  ) {
    ({ keys: this.keys, pages: this.pages, feed: this.feed } = engine);
    this.clock = () => engine.clock.now().getTime();
  }

  /**
   * Starts watching (once); resolves when changes from now on will be delivered. Keys as they are now are the
   * baseline: their past changes are not delivered.
   */
  start(): Promise<void> {
    const watch = this.storage.watch?.bind(this.storage);
    if (!watch) return Promise.resolve();
    this.watch ??= (async () => {
      const folder = this.layout.metadataFolder('');
      this.queued = new Set();
      const handle = await watch(folder, {
        changed: (key) => this.notified(key.slice(folder.length)),
        reset: () => void this.catchUp().catch(this.onError),
      });
      try {
        for await (const path of this.allKeys()) {
          const record = await this.keys.read(path);
          if (record) this.feed.acknowledge(path, record.revision, record.current_version);
        }
      } finally {
        const queued = this.queued;
        this.queued = undefined;
        await Promise.all([...queued].map((path) => this.reconcile(path)));
      }
      return handle;
    })();
    return this.watch.then(() => undefined);
  }

  async stop(): Promise<void> {
    const watch = this.watch;
    this.watch = undefined;
    await (await watch?.catch(() => undefined))?.close();
  }

  private notified(path: string): void {
    if (this.queued) this.queued.add(path);
    else void this.reconcile(path).catch(this.onError);
  }

  /**
   * Delivers what the key's record holds beyond the last event delivered; a vanished key makes its removal event. A
   * change this process delivered for the key while the read was under way may be newer than what the read answered
   * (a key removed, and then its old record), so the key is read again.
   */
  private reconcile(path: string): Promise<void> {
    return this.mutex.run(path, async () => {
      let known: object | undefined;
      let record: StoredMetadata | undefined;
      do {
        known = this.feed.remembered(path);
        record = await this.keys.read(path);
      } while (this.feed.remembered(path) !== known);
      if (record) return this.feed.deliverWatched(changesOf(path, record, this.layout.metadata(path)));
      const last = this.feed.last(path);
      if (last)
        this.feed.deliverWatched([
          removalChange(path, { revision: last.revision, current_version: last.version }, this.clock()),
        ]);
    });
  }

  /** After a reset: every key now present, then every key once seen and now gone. */
  private async catchUp(): Promise<void> {
    const seen = new Set<string>();
    for await (const path of this.allKeys()) {
      seen.add(path);
      await this.reconcile(path);
    }
    await Promise.all(
      this.feed
        .knownPaths()
        .filter((path) => !seen.has(path))
        .map((path) => this.reconcile(path)),
    );
  }

  private async *allKeys(): AsyncGenerator<string> {
    let after: string | undefined;
    for (;;) {
      const page = await this.pages.page('', { after, limit: 500, recursive: true });
      yield* page;
      if (page.length < 500) return;
      after = page[page.length - 1];
    }
  }
}
