import type { Storage } from '../../src/ports/storage.js';

export type StorageCall = 'get' | 'put' | 'delete' | 'list' | 'compareAndPut';

export class InjectedFault extends Error {
  constructor(call: StorageCall, n: number) {
    super(`injected storage fault on call #${n} (${call})`);
  }
}

/**
 * Wraps a Storage and fails the Nth call (1-based) among the selected kinds of call, once, by throwing (or by
 * hanging for `hangMs` and then throwing). Counts every call so that tests can sweep N over a whole operation.
 */
export class FaultyStorage implements Storage {
  calls = 0;
  failAt: number | undefined;
  failed = false;
  hangMs = 0;
  only: readonly StorageCall[] = ['get', 'put', 'delete', 'list', 'compareAndPut'];

  constructor(readonly inner: Storage & { compareAndPut?: Storage['compareAndPut'] }) {}

  /** Fail the Nth counted call from now on; `undefined` disarms. */
  arm(n: number | undefined, options: { only?: readonly StorageCall[]; hangMs?: number } = {}): void {
    this.calls = 0;
    this.failAt = n;
    this.failed = false;
    this.only = options.only ?? ['get', 'put', 'delete', 'list', 'compareAndPut'];
    this.hangMs = options.hangMs ?? 0;
  }

  private async gate(call: StorageCall): Promise<void> {
    if (!this.only.includes(call)) return;
    this.calls += 1;
    if (this.failAt !== undefined && !this.failed && this.calls === this.failAt) {
      this.failed = true;
      if (this.hangMs > 0) await new Promise((resolve) => setTimeout(resolve, this.hangMs));
      throw new InjectedFault(call, this.calls);
    }
  }

  async get(key: string) {
    await this.gate('get');
    return this.inner.get(key);
  }
  async put(key: string, value: Uint8Array) {
    await this.gate('put');
    return this.inner.put(key, value);
  }
  async delete(key: string) {
    await this.gate('delete');
    return this.inner.delete(key);
  }
  async list(prefix: string) {
    await this.gate('list');
    return this.inner.list(prefix);
  }
  get compareAndPut(): Storage['compareAndPut'] {
    const inner = this.inner.compareAndPut?.bind(this.inner);
    if (!inner) return undefined;
    return async (key, expected, value) => {
      await this.gate('compareAndPut');
      return inner(key, expected, value);
    };
  }
}

/** The same storage without compareAndPut, to test the single-process path. */
export function withoutCompareAndPut(storage: Storage): Storage {
  return {
    get: (key) => storage.get(key),
    put: (key, value) => storage.put(key, value),
    delete: (key) => storage.delete(key),
    list: (prefix) => storage.list(prefix),
  };
}
