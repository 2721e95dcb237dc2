import type { Storage } from '../../ports/storage.js';

/** One conformance case: it gets an empty storage (and a second handle onto it when the adapter offers one). */
export interface ConformanceCase {
  name: string;
  /** Optional port members the case exercises; without them it is skipped. */
  requires?: ReadonlyArray<'compareAndPut' | 'compareAndDelete' | 'commit' | 'listPage' | 'watch'>;
  /** Runs the checks on an empty storage; rejects with an Error that says what failed. */
  run(storage: Storage, sibling?: Storage): Promise<void>;
}

/** The suite's own assertion: no test runner is assumed. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function checkEqual<T>(actual: T, expected: T, label: string): void {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  check(a === e, `${label}: expected ${e}, got ${a}`);
}

function describe(value: Uint8Array | undefined): string {
  if (value === undefined) return 'undefined';
  const head = Buffer.from(value.subarray(0, 16)).toString('hex');
  return `${value.length} bytes (${head}${value.length > 16 ? '...' : ''})`;
}

export function checkBytes(actual: Uint8Array | undefined, expected: Uint8Array, label: string): void {
  check(actual instanceof Uint8Array, `${label}: expected ${describe(expected)}, got ${describe(actual)}`);
  check(Buffer.from(actual).equals(expected), `${label}: expected ${describe(expected)}, got ${describe(actual)}`);
}

/** Deterministic pseudo-random bytes, so a failure reproduces. */
export function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[index] = state & 0xff;
  }
  return out;
}

export const encode = (text: string) => new TextEncoder().encode(text);

/** Puts each key with its own name as its value. */
export async function putAll(storage: Storage, keys: readonly string[]): Promise<void> {
  for (const key of keys) await storage.put(key, encode(key));
}
