import type { Storage } from '../../../src/ports/storage.js';
import { FaultyStorage, type StorageCall } from '../../support/faulty-storage.js';

/** A storage that fails one chosen call; the sweeps drive FaultyStorage and LateFaultStorage through this. */
export interface ArmableStorage extends Storage {
  arm(n: number | undefined, options?: { only?: readonly StorageCall[] }): void;
  readonly failed: boolean;
}

export class LateFault extends Error {}

/**
 * Fails the Nth call *after* it took effect: the write is stored but the caller is told it failed, as when a
 * database commits and the connection drops before the answer arrives. FaultyStorage covers the other two faults
 * (the call never happens; it hangs first).
 */
export class LateFaultStorage implements ArmableStorage {
  private calls = 0;
  private failAt: number | undefined;
  private only: readonly StorageCall[] = [];
  failed = false;

  constructor(private readonly inner: Storage) {}

  arm(n: number | undefined, options: { only?: readonly StorageCall[] } = {}): void {
    this.calls = 0;
    this.failAt = n;
    this.failed = false;
    this.only = options.only ?? ['get', 'put', 'delete', 'list', 'compareAndPut'];
  }

  private async after<T>(call: StorageCall, run: () => Promise<T>): Promise<T> {
    const result = await run();
    if (!this.only.includes(call)) return result;
    this.calls += 1;
    if (this.failAt !== undefined && !this.failed && this.calls === this.failAt) {
      this.failed = true;
      throw new LateFault(`the ${call} took effect but its answer was lost (call #${this.calls})`);
    }
    return result;
  }

  get(key: string) {
    return this.after('get', () => this.inner.get(key));
  }
  put(key: string, value: Uint8Array) {
    return this.after('put', () => this.inner.put(key, value));
  }
  delete(key: string) {
    return this.after('delete', () => this.inner.delete(key));
  }
  list(prefix: string) {
    return this.after('list', () => this.inner.list(prefix));
  }
  get compareAndPut(): Storage['compareAndPut'] {
    const inner = this.inner.compareAndPut?.bind(this.inner);
    if (!inner) return undefined;
    return (key, expected, value) => this.after('compareAndPut', () => inner(key, expected, value));
  }
}

export type FaultKind = 'throw' | 'hang' | 'late';
export const FAULT_KINDS: readonly FaultKind[] = ['throw', 'hang', 'late'];

/** Wraps `inner` for one kind of fault; `arm(n)` then fails the Nth call in that way. */
export function faultyStorage(inner: Storage, kind: FaultKind, hangMs = 2): ArmableStorage {
  if (kind === 'late') return new LateFaultStorage(inner);
  const faulty = new FaultyStorage(inner);
  if (kind === 'throw') return faulty;
  return {
    get: (key) => faulty.get(key),
    put: (key, value) => faulty.put(key, value),
    delete: (key) => faulty.delete(key),
    list: (prefix) => faulty.list(prefix),
    ...(faulty.compareAndPut ? { compareAndPut: faulty.compareAndPut } : {}),
    arm: (n, options) => faulty.arm(n, { ...options, hangMs }),
    get failed() {
      return faulty.failed;
    },
  };
}

/** A tiny deterministic PRNG (mulberry32), so interleavings replay exactly from a seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Yields to other tasks a seeded random number of times before every call, so that concurrent operations interleave
 * differently from run to run of the seed; counts compareAndPut calls that lost a race. With `atomic`, it also offers
 * the inner storage's compareAndDelete and commit (without, engines take their compareAndPut-only paths).
 */
export class InterleavingStorage implements Storage {
  conflicts = 0;
  private readonly next: () => number;

  constructor(
    private readonly inner: Storage,
    seed: number,
    private readonly atomic = false,
  ) {
    this.next = random(seed);
  }

  get compareAndDelete(): Storage['compareAndDelete'] {
    const inner = this.atomic ? this.inner.compareAndDelete?.bind(this.inner) : undefined;
    return inner && (async (key, expected) => (await this.pause(), inner(key, expected)));
  }

  get commit(): Storage['commit'] {
    const inner = this.atomic ? this.inner.commit?.bind(this.inner) : undefined;
    return inner && (async (operations) => (await this.pause(), inner(operations)));
  }

  private async pause(): Promise<void> {
    for (let turns = Math.floor(this.next() * 5); turns > 0; turns--)
      await new Promise((resolve) => setImmediate(resolve));
  }

  async get(key: string) {
    await this.pause();
    return this.inner.get(key);
  }
  async put(key: string, value: Uint8Array) {
    await this.pause();
    return this.inner.put(key, value);
  }
  async delete(key: string) {
    await this.pause();
    return this.inner.delete(key);
  }
  async list(prefix: string) {
    await this.pause();
    return this.inner.list(prefix);
  }
  get compareAndPut(): Storage['compareAndPut'] {
    const inner = this.inner.compareAndPut?.bind(this.inner);
    if (!inner) return undefined;
    return async (key, expected, value) => {
      await this.pause();
      const done = await inner(key, expected, value);
      if (!done) this.conflicts += 1;
      return done;
    };
  }
}

/** Whether a storage key could be read differently by a storage that maps keys onto files or UTF-8 text. */
export function unsafeStorageKey(key: string): string | undefined {
  if (/\p{Cs}/u.test(key)) return 'unpaired surrogate';
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'control character';
  const segments = key.split('/');
  if (key.endsWith('/')) segments.pop();
  if (segments.some((segment) => segment === '.' || segment === '..')) return "'.' or '..' segment";
  if (segments.some((segment) => segment === '')) return 'empty segment';
  return undefined;
}

/** Records every key the engines touch whose form a file- or text-keyed storage would misread. */
export class AuditedStorage implements Storage {
  readonly unsafe: string[] = [];

  constructor(private readonly inner: Storage) {}

  private check(key: string, folder = false): void {
    // A list prefix is '' or a folder ending in '/'.
    if (folder && key === '') return;
    const problem = unsafeStorageKey(key);
    if (problem) this.unsafe.push(`${JSON.stringify(key)}: ${problem}`);
  }

  get(key: string) {
    this.check(key);
    return this.inner.get(key);
  }
  put(key: string, value: Uint8Array) {
    this.check(key);
    return this.inner.put(key, value);
  }
  delete(key: string) {
    this.check(key);
    return this.inner.delete(key);
  }
  list(prefix: string) {
    this.check(prefix, true);
    return this.inner.list(prefix);
  }
  get compareAndPut(): Storage['compareAndPut'] {
    const inner = this.inner.compareAndPut?.bind(this.inner);
    if (!inner) return undefined;
    return (key, expected, value) => {
      this.check(key);
      return inner(key, expected, value);
    };
  }
}
