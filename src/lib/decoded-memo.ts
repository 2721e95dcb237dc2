// Documents read again and again (a token's entry on each of its requests) decoded once per distinct content. The read
// itself still happens every time, so a change made by another process (other bytes) is never missed: only the work
// of turning the same bytes into the same value again is skipped.
import { sameBytes } from './bytes.js';
import { RecentMap } from './recent-map.js';

/**
 * Freezes `value` and everything inside it, so that a value handed to many callers cannot be altered by one; what is
 * frozen already is taken as frozen all through.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const field of Object.values(value)) deepFreeze(field);
  return Object.freeze(value);
}

/** The values the bytes last read under each of at most `capacity` keys decode to, deeply frozen. */
export class DecodedMemo<V> {
  readonly #entries: RecentMap<string, { bytes: Uint8Array; value: V }>;

  constructor(capacity: number) {
    this.#entries = new RecentMap(capacity);
  }

  /**
   * What `bytes`, just read under `key`, decode to: the remembered value when they are the bytes it was decoded from
   * (a native comparison), else `decode(bytes)`, remembered. A decode that throws remembers nothing. The bytes must
   * not be altered afterwards: storages answer each read with bytes of its own.
   */
  decode(key: string, bytes: Uint8Array, decode: (bytes: Uint8Array) => V): V {
    const known = this.#entries.get(key);
    if (known && sameBytes(known.bytes, bytes)) return known.value;
    const value = deepFreeze(decode(bytes));
    this.#entries.set(key, { bytes, value });
    return value;
  }
}
