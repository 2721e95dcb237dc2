/**
 * The plaintexts of recently read or written entries, each with the exact sealed bytes it came from. A read whose
 * stored bytes are identical to the remembered ones skips the decryption: the same ciphertext always opens to the same
 * plaintext, so the answer is exact whoever wrote the entry. Within a byte budget, the oldest entries go first, except
 * that one read since it was last passed over gets a second chance (a clock: a read changes a flag, not the order).
 */
import { sameBytes } from '../lib/bytes.js';

interface Entry {
  sealed: Uint8Array;
  plaintext: Uint8Array;
  term: number;
  used: boolean;
}

/**
 * A plaintext may be a view of memory it shares with the other values of its commit: all of that memory counts, since
 * the entry keeps all of it alive. Several entries of one commit then each count it: the budget errs on the safe side.
 * Their sealed values share one allocation as well, of about the same size, which that double count already covers;
 * a sealed value read from a storage is counted by its length, since a driver may answer a view of a larger buffer.
 */
const sizeOf = (entry: Entry) => entry.sealed.length + entry.plaintext.buffer.byteLength;

/** A copy in an array of its own, also from a Buffer (whose slice() would share the memory). */
export function copyOf(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/**
 * A copy of `plaintext` for a reader, written over `spare` when that is an array the reader already owns whole (the
 * sealed bytes a storage read answered, which are longer): one allocation fewer per read. The rest of `spare` is
 * zeroed, and an array that shares its memory with anything else (a Buffer from a pool) is never written.
 */
export function copyOver(spare: Uint8Array, plaintext: Uint8Array): Uint8Array {
  if (spare.byteOffset !== 0 || spare.buffer.byteLength !== spare.byteLength || spare.byteLength < plaintext.byteLength)
    return copyOf(plaintext);
  spare.set(plaintext);
  spare.fill(0, plaintext.byteLength);
  return new Uint8Array(spare.buffer, 0, plaintext.byteLength);
}

export class OpenedCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  /** The remembered entry when `sealed` is exactly its sealed bytes, counted as read; its plaintext is never handed out. */
  lookup(key: string, sealed: Uint8Array): Entry | undefined {
    const entry = this.peek(key, sealed);
    if (entry) entry.used = true;
    return entry;
  }

  /** The remembered entry when `sealed` is exactly its sealed bytes: for comparisons only, never handed out. */
  peek(key: string, sealed: Uint8Array): Entry | undefined {
    const entry = this.entries.get(key);
    return entry && sameBytes(entry.sealed, sealed) ? entry : undefined;
  }

  /** The remembered entry of `key` when its sealed bytes open to exactly `plaintext`. */
  holding(key: string, plaintext: Uint8Array): Entry | undefined {
    const entry = this.entries.get(key);
    return entry && sameBytes(entry.plaintext, plaintext) ? entry : undefined;
  }

  /** Keeps `plaintext` itself, not a copy: the caller hands over an array nobody else holds. */
  remember(key: string, sealed: Uint8Array, plaintext: Uint8Array, term: number): void {
    this.forget(key);
    const entry = { sealed, plaintext, term, used: false };
    const size = sizeOf(entry);
    // One entry may take at most a sixteenth of the budget, so a few large values cannot flush everything else.
    if (size * 16 > this.budget) return;
    this.entries.set(key, entry);
    this.bytes += size;
    if (this.bytes > this.budget) this.evict();
  }

  forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= sizeOf(entry);
  }

  /** Oldest first; an entry read since it was last passed over moves to the back instead, once. */
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.budget) return;
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
      } else {
        this.bytes -= sizeOf(entry);
      }
    }
  }
}
