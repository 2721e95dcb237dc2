import type { ListPageOptions, Storage, StorageOperation } from '../../src/ports/storage.js';

/** A storage call as the pausing wrapper sees it: its name and the keys it touches. */
export interface Call {
  name: 'get' | 'put' | 'delete' | 'list' | 'compareAndPut' | 'compareAndDelete' | 'commit' | 'listPage';
  keys: string[];
}

interface Pause {
  matches: (call: Call) => boolean;
  reached: () => void;
  release: Promise<void>;
}

/**
 * Wraps a Storage shared by several engines and holds chosen calls before they reach it, so a test can interleave
 * two engines deterministically: `pause(match)` answers a handle whose `reached` resolves once a matching call is
 * waiting, and whose `resume()` lets it through. Each pause catches one call. Optional members exist exactly when the
 * inner storage has them.
 */
export class PausedStorage implements Storage {
  private readonly pauses: Pause[] = [];

  constructor(readonly inner: Storage) {}

  pause(matches: (call: Call) => boolean): { reached: Promise<void>; resume: () => void } {
    let reached!: () => void;
    let resume!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const release = new Promise<void>((resolve) => (resume = resolve));
    this.pauses.push({ matches, reached, release });
    return { reached: reachedPromise, resume };
  }

  private async gate(call: Call): Promise<void> {
    const index = this.pauses.findIndex((pause) => pause.matches(call));
    if (index < 0) return;
    const [pause] = this.pauses.splice(index, 1);
    pause!.reached();
    await pause!.release;
  }

  async get(key: string) {
    await this.gate({ name: 'get', keys: [key] });
    return this.inner.get(key);
  }
  async put(key: string, value: Uint8Array) {
    await this.gate({ name: 'put', keys: [key] });
    return this.inner.put(key, value);
  }
  async delete(key: string) {
    await this.gate({ name: 'delete', keys: [key] });
    return this.inner.delete(key);
  }
  async list(prefix: string) {
    await this.gate({ name: 'list', keys: [prefix] });
    return this.inner.list(prefix);
  }
  get compareAndPut(): Storage['compareAndPut'] {
    const inner = this.inner.compareAndPut?.bind(this.inner);
    return (
      inner &&
      (async (key: string, expected: Uint8Array | undefined, value: Uint8Array) => {
        await this.gate({ name: 'compareAndPut', keys: [key] });
        return inner(key, expected, value);
      })
    );
  }
  get compareAndDelete(): Storage['compareAndDelete'] {
    const inner = this.inner.compareAndDelete?.bind(this.inner);
    return (
      inner &&
      (async (key: string, expected: Uint8Array) => {
        await this.gate({ name: 'compareAndDelete', keys: [key] });
        return inner(key, expected);
      })
    );
  }
  get commit(): Storage['commit'] {
    const inner = this.inner.commit?.bind(this.inner);
    return (
      inner &&
      (async (operations: readonly StorageOperation[]) => {
        await this.gate({ name: 'commit', keys: operations.map((operation) => operation.key) });
        return inner(operations);
      })
    );
  }
  get listPage(): Storage['listPage'] {
    const inner = this.inner.listPage?.bind(this.inner);
    return (
      inner &&
      (async (prefix: string, options: ListPageOptions) => {
        await this.gate({ name: 'listPage', keys: [prefix] });
        return inner(prefix, options);
      })
    );
  }
}
