/**
 * Per-key async mutual exclusion: callers of `run` with the same key are serialised in arrival order, different keys
 * run concurrently. Entries are removed once a key is idle, so the map only holds keys in use.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    try {
      if (previous) await previous;
      return await task();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys currently held or awaited (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }
}
