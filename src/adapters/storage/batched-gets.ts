/**
 * Coalesces the single-key reads issued in one turn of the event loop into one multi-key read. An engine operation
 * often reads two keys at once (a KV write reads the engine's config beside the key's head), and concurrent requests
 * read many: over a network database each read is a round trip, and one round trip for all of them is what lets the
 * operation cost what the raw storage calls cost. The reads of one batch come from one statement, so they are also
 * mutually consistent.
 */
export type FetchMany = (keys: readonly string[]) => Promise<ReadonlyMap<string, Uint8Array>>;

/** Bounds the size of one statement's key list; more reads in the same turn go in further batches. */
const MAX_BATCH = 100;

interface Waiter {
  resolve: (value: Uint8Array | undefined) => void;
  reject: (error: unknown) => void;
}

export class BatchedGets {
  private pending = new Map<string, Waiter[]>();
  private scheduled = false;

  constructor(private readonly fetchMany: FetchMany) {}

  get(key: string): Promise<Uint8Array | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        // After the promise jobs of this turn, so that reads an operation issues a few awaits apart share the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    const keys = [...batch.keys()];
    for (let start = 0; start < keys.length; start += MAX_BATCH)
      void this.answer(keys.slice(start, start + MAX_BATCH), batch);
  }

  private async answer(keys: readonly string[], batch: ReadonlyMap<string, Waiter[]>): Promise<void> {
    try {
      const values = await this.fetchMany(keys);
      for (const key of keys) {
        const value = values.get(key);
        // Each caller owns what it gets (it may change it): callers of one key get copies after the first.
        batch
          .get(key)!
          .forEach((waiter, index) => waiter.resolve(index === 0 || value === undefined ? value : value.slice()));
      }
    } catch (error) {
      for (const key of keys) for (const waiter of batch.get(key)!) waiter.reject(error);
    }
  }
}
