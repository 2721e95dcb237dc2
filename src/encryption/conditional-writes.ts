/**
 * Conditional writes and commits over sealed values. Every write produces a different ciphertext, so a condition is on
 * the plaintext: the stored ciphertext is opened and compared, and the wrapped storage's conditional write is then made
 * against exactly the ciphertext read. A write refused because the ciphertext changed while the plaintext did not (a
 * re-seal by another process) is tried again; one whose plaintext changed answers false.
 */
import { InternalError } from '../lib/errors.js';
import { sameBytes } from '../lib/bytes.js';
import type { Storage, StorageOperation } from '../ports/storage.js';
import type { KeyringStore } from './keyring-store.js';
import type { OpenedCache } from './opened-cache.js';
import { checkKey } from './reserved-folder.js';
import { confirm, MAX_CONFLICTS, remember, sealAll, sealWith, tooManyWriters } from './sealed-writes.js';

/** The stored bytes a conditional write is made against (undefined: absent), or false when its condition fails. */
type Condition = Uint8Array | undefined | false;

/** The stored bytes each operation of a commit is conditioned on (undefined: none, or absent); undefined when refused. */
type StoredConditions = (Uint8Array | undefined)[] | undefined;

export class ConditionalWrites {
  constructor(
    private readonly inner: Storage,
    private readonly keyring: KeyringStore,
    private readonly opened: OpenedCache,
    /** The barrier's read of a stored value: opens it, loading a newer keyring when its term is unknown. */
    private readonly openValue: (key: string, sealed: Uint8Array) => Promise<Uint8Array>,
  ) {}

  async putIfPlaintext(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean> {
    checkKey(key);
    const cas = this.inner.compareAndPut!.bind(this.inner);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const stored = await this.storedHolding(key, expected ?? null, attempt === 0);
      if (stored === false) return false;
      const written = sealWith(this.keyring.known ?? (await this.keyring.current()), key, value);
      if (await cas(key, stored, written.sealed)) {
        remember(this.opened, written);
        await confirm(this.inner, this.keyring, this.opened, [written]);
        return true;
      }
      // The key exists after all, or its ciphertext changed while its plaintext may not have (a re-seal): read it.
    }
    throw tooManyWriters(key);
  }

  async deleteIfPlaintext(key: string, expected: Uint8Array): Promise<boolean> {
    checkKey(key);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const stored = await this.storedHolding(key, expected, attempt === 0);
      if (stored === false) return false;
      if (await this.inner.compareAndDelete!(key, stored as Uint8Array)) {
        this.opened.forget(key);
        return true;
      }
    }
    throw tooManyWriters(key);
  }

  /** Conditions become conditions on the exact ciphertexts read; a commit refused for a changed ciphertext is retried. */
  async commitSealed(operations: readonly StorageOperation[]): Promise<boolean> {
    for (const operation of operations) checkKey(operation.key);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const conditions = this.conditionsOf(operations, attempt === 0);
      // Guesses from the cache need no wait; only reads do.
      const stored = isPromise(conditions) ? await conditions : conditions;
      if (!stored) return false;
      // After the checks, which may have loaded a newer keyring while opening a value.
      const keyring = this.keyring.known ?? (await this.keyring.current());
      const writes = sealAll(keyring, operations, snapshotsOf(operations));
      const sealed: StorageOperation[] = [];
      for (let index = 0; index < operations.length; index++) {
        const { key, expected } = operations[index]!;
        const value = writes[index]?.sealed;
        const next: StorageOperation = value ? { type: 'put', key, value } : { type: 'delete', key };
        if (expected !== undefined) next.expected = stored[index] ?? null;
        sealed.push(next);
      }
      if (await this.inner.commit!(sealed)) {
        for (const operation of operations) if (operation.type === 'delete') this.opened.forget(operation.key);
        const landed = writes.filter((written) => written !== undefined);
        for (const written of landed) remember(this.opened, written);
        await confirm(this.inner, this.keyring, this.opened, landed);
        return true;
      }
      // A condition failed against the ciphertexts read: the next round tells a real change from a re-seal.
    }
    throw new InternalError('too many concurrent writers on the keys of a commit');
  }

  /**
   * Whether `stored` opens to exactly `expected` (undefined: both absent). Answered in place, without a copy or a
   * wait, when the cache holds exactly `stored` under a live term.
   */
  private holdsPlaintext(
    key: string,
    stored: Uint8Array | undefined,
    expected: Uint8Array | undefined,
  ): boolean | Promise<boolean> {
    if (stored === undefined || expected === undefined) return stored === expected;
    const known = this.opened.peek(key, stored);
    if (known && this.keyring.known?.keyOf(known.term)) return sameBytes(known.plaintext, expected);
    return this.openValue(key, stored).then((plaintext) => sameBytes(plaintext, expected));
  }

  /**
   * The exact stored bytes a write conditioned on `expected` (null: absent) is to be made against, or false when the
   * key does not hold `expected` (compared by plaintext). A first try guesses, with no read and no check: the
   * ciphertext this process last saw holding `expected` under a live term (or, to create, nothing); a wrong guess only
   * makes the wrapped storage refuse the write, and the next try reads.
   */
  private storedHolding(key: string, expected: Uint8Array | null, guess: boolean): Condition | Promise<Condition> {
    if (guess) {
      if (expected === null) return undefined;
      const known = this.opened.holding(key, expected);
      if (known && this.keyring.known?.keyOf(known.term)) return known.sealed;
    }
    return this.inner
      .get(key)
      .then(async (stored) => ((await this.holdsPlaintext(key, stored, expected ?? undefined)) ? stored : false));
  }

  /**
   * The exact stored bytes each conditioned operation is to be made against (undefined for an unconditioned one), or
   * undefined when a condition fails; a promise only when some condition needs a read, and then all reads run at once.
   */
  private conditionsOf(
    operations: readonly StorageOperation[],
    guess: boolean,
  ): StoredConditions | Promise<StoredConditions> {
    const conditions: (Condition | Promise<Condition>)[] = [];
    let reads = false;
    for (const { key, expected } of operations) {
      const condition = expected === undefined ? undefined : this.storedHolding(key, expected, guess);
      reads ||= isPromise(condition);
      conditions.push(condition);
    }
    return reads ? Promise.all(conditions).then(unlessRefused) : unlessRefused(conditions as Condition[]);
  }
}

/**
 * Snapshots of the values a commit puts (undefined for its deletes), in one array of the barrier's own: one allocation
 * per commit instead of one per value. What is sealed and remembered is then exactly what the caller passed, whatever
 * the caller does with its arrays next.
 */
function snapshotsOf(operations: readonly StorageOperation[]): (Uint8Array | undefined)[] {
  let total = 0;
  for (const operation of operations) if (operation.type === 'put') total += operation.value.length;
  const memory = new Uint8Array(total);
  const snapshots: (Uint8Array | undefined)[] = [];
  let offset = 0;
  for (const operation of operations) {
    if (operation.type !== 'put') {
      snapshots.push(undefined);
      continue;
    }
    const length = operation.value.length;
    memory.set(operation.value, offset);
    snapshots.push(new Uint8Array(memory.buffer, offset, length));
    offset += length;
  }
  return snapshots;
}

function unlessRefused(conditions: Condition[]): StoredConditions {
  return conditions.includes(false) ? undefined : (conditions as (Uint8Array | undefined)[]);
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}
