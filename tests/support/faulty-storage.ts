import type { ListPageOptions, Storage, StorageOperation } from '../../src/ports/storage.js';

export type StorageCall =
  'get' | 'put' | 'delete' | 'list' | 'compareAndPut' | 'compareAndDelete' | 'commit' | 'listPage';

const ALL_CALLS: readonly StorageCall[] = [
  'get',
  'put',
  'delete',
  'list',
  'compareAndPut',
  'compareAndDelete',
  'commit',
  'listPage',
];

export class InjectedFault extends Error {
  constructor(call: StorageCall, n: number) {
    super(`injected storage fault on call #${n} (${call})`);
  }
}

/**
 * Wraps a Storage and fails the Nth call (1-based) among the selected kinds of call, once, by throwing (or by
 * hanging for `hangMs` and then throwing), or, with `crash`, that call and every later one (the process died there).
 * Counts every call so that tests can sweep N over a whole operation. The optional members exist exactly when the
 * inner storage has them.
 */
export class FaultyStorage implements Storage {
  calls = 0;
  failAt: number | undefined;
  failed = false;
  hangMs = 0;
  crash = false;
  only: readonly StorageCall[] = ALL_CALLS;

  constructor(readonly inner: Storage) {}

  /** Fail the Nth counted call from now on; `undefined` disarms. */
  arm(n: number | undefined, options: { only?: readonly StorageCall[]; hangMs?: number; crash?: boolean } = {}): void {
    this.calls = 0;
    this.failAt = n;
    this.failed = false;
    this.only = options.only ?? ALL_CALLS;
    this.hangMs = options.hangMs ?? 0;
    this.crash = options.crash ?? false;
  }

  private async gate(call: StorageCall): Promise<void> {
    if (this.crash && this.failed) throw new InjectedFault(call, this.calls);
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
  get compareAndDelete(): Storage['compareAndDelete'] {
    const inner = this.inner.compareAndDelete?.bind(this.inner);
    if (!inner) return undefined;
    return async (key: string, expected: Uint8Array) => {
      await this.gate('compareAndDelete');
      return inner(key, expected);
    };
  }
  get commit(): Storage['commit'] {
    const inner = this.inner.commit?.bind(this.inner);
    if (!inner) return undefined;
    return async (operations: readonly StorageOperation[]) => {
      await this.gate('commit');
      return inner(operations);
    };
  }
  get listPage(): Storage['listPage'] {
    const inner = this.inner.listPage?.bind(this.inner);
    if (!inner) return undefined;
    return async (prefix: string, options: ListPageOptions) => {
      await this.gate('listPage');
      return inner(prefix, options);
    };
  }
}

/** The same storage with compareAndPut but without the atomic members (compareAndDelete, commit). */
export function withoutCommit(storage: Storage): Storage {
  const compareAndPut = storage.compareAndPut?.bind(storage);
  return { ...withoutCompareAndPut(storage), ...(compareAndPut ? { compareAndPut } : {}) };
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
