import { InternalError, UnknownKeyTerm } from '../core/errors.js';
import { KeyedMutex } from '../core/lock.js';
import type { Clock } from '../ports/clock.js';
import type { RootKeyProvider } from '../ports/root-key.js';
import type { ListPageOptions, Storage, StorageOperation } from '../ports/storage.js';
import { systemClock } from '../core/system-clock.js';
import { sameBytes } from '../core/bytes.js';
import { KeyringStore } from './keyring-store.js';
import type { Keyring } from './keyring.js';
import { runRewrap, type RewrapOptions, type RewrapReport } from './rewrap.js';
import { copyOf, copyOver, OpenedCache } from './opened-cache.js';
import { open, seal, termOf } from './sealed-value.js';
import { StaticRootKey } from './static-root-key.js';

export interface EncryptedStorageOptions {
  /** Where the sealed values (and the keyring) are stored. */
  storage: Storage;
  /** The root key: 32 bytes, or a provider such as `StaticRootKey` or `KmsRootKey`. */
  key: Uint8Array | RootKeyProvider;
  /** Dates the keyring's terms; default the system clock. */
  clock?: Clock;
  /**
   * Bytes of recently used entries (sealed and opened) kept to skip decrypting a value whose stored bytes have not
   * changed; default 8 MiB, 0 turns it off. The plaintexts stay in this process's memory, as they do while in use.
   */
  cacheBytes?: number;
}

export interface KeyringStatus {
  /** The term new writes are sealed with. */
  active: number;
  /** Every term whose key the keyring holds, the active one included. */
  terms: number[];
  /** Terms whose keys are destroyed: nothing readable is sealed with them any more. */
  retired: number[];
}

/** The folder of the wrapped storage that holds the keyring and the rewrap cursor; hidden from the barrier's users. */
export const RESERVED_FOLDER = '.encryption/';
const KEYRING_KEY = `${RESERVED_FOLDER}keyring`;
const RESERVED_KEYS = 2;
const MAX_CONFLICTS = 64;

/** The stored bytes a conditional write is made against (undefined: absent), or false when its condition fails. */
type Condition = Uint8Array | undefined | false;

/** The stored bytes each operation of a commit is conditioned on (undefined: none, or absent); undefined when refused. */
type StoredConditions = (Uint8Array | undefined)[] | undefined;

/** A value written under `term`, kept until the write is confirmed against the stored keyring. */
interface Written {
  key: string;
  sealed: Uint8Array;
  plaintext: Uint8Array;
  term: number;
}

/**
 * Encryption at rest: a Storage over another Storage that seals every value (AES-256-GCM, a fresh random nonce per
 * write, the storage key and key term bound as additional data) and opens it on read. Keys (paths) are not encrypted.
 * Each optional member of the wrapped storage is offered with the same meaning, comparing plaintexts although the
 * stored ciphertexts are randomised, and no member the wrapped storage lacks is offered.
 */
export class EncryptedStorage implements Storage {
  declare readonly compareAndPut?: Storage['compareAndPut'];
  declare readonly compareAndDelete?: Storage['compareAndDelete'];
  declare readonly commit?: Storage['commit'];
  declare readonly listPage?: Storage['listPage'];
  declare readonly watch?: Storage['watch'];

  private readonly inner: Storage;
  private readonly keyring: KeyringStore;
  private readonly clock: Clock;
  /** Serialises writes and rewraps of one key when the wrapped storage has no compare-and-put to do it. */
  private readonly keyLocks = new KeyedMutex();
  private readonly opened: OpenedCache;

  constructor(options: EncryptedStorageOptions) {
    this.inner = options.storage;
    this.clock = options.clock ?? systemClock;
    this.opened = new OpenedCache(options.cacheBytes ?? 8 * 1024 * 1024);
    const provider = options.key instanceof Uint8Array ? new StaticRootKey(options.key) : options.key;
    this.keyring = new KeyringStore(this.inner, provider, KEYRING_KEY, () => this.clock.now());
    const inner = this.inner;
    const members: Partial<Storage> = {};
    if (inner.compareAndPut) members.compareAndPut = (key, expected, value) => this.putIfPlaintext(key, expected, value);
    if (inner.compareAndDelete) members.compareAndDelete = (key, expected) => this.deleteIfPlaintext(key, expected);
    if (inner.commit) members.commit = (operations) => this.commitSealed(operations);
    if (inner.listPage) members.listPage = (prefix, options) => this.visiblePage(prefix, options);
    // Notifications carry key names only, which are not sealed; the keyring's own keys stay hidden as in listings.
    if (inner.watch) {
      members.watch = (prefix, handlers) =>
        inner.watch!(prefix, { changed: (key) => key.startsWith(RESERVED_FOLDER) || handlers.changed(key), reset: () => handlers.reset() });
    }
    Object.assign(this, members);
  }

  /**
   * Loads the keyring, creating it on first use. Rejects with WrongRootKey when the root key is not the one the
   * keyring was created with: call it at startup to fail there rather than on the first request.
   */
  async open(): Promise<void> {
    await this.keyring.current();
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    const sealed = await this.inner.get(key);
    if (sealed === undefined) {
      this.opened.forget(key);
      return undefined;
    }
    const keyring = this.keyring.known;
    // The storage answered an array of this reader's own: the plaintext may be written over it.
    return (keyring && this.openWith(keyring, key, sealed, true)) || this.openValue(key, sealed);
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    checkKey(key);
    const written = await this.sealFor(key, value);
    await this.exclusive(key, () => this.inner.put(key, written.sealed));
    this.remember(written);
    await this.confirm([written]);
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.exclusive(key, () => this.inner.delete(key));
    this.opened.forget(key);
  }

  async list(prefix: string): Promise<string[]> {
    if (prefix.startsWith(RESERVED_FOLDER)) return [];
    const names = await this.inner.list(prefix);
    return prefix === '' ? names.filter((name) => name !== RESERVED_FOLDER) : names;
  }

  /** Adds a key term and makes it the one new writes use; answers its number. Reads keep opening every older term. */
  async rotate(): Promise<number> {
    return (await this.keyring.update((keyring) => keyring.rotated(this.clock.now()))).active;
  }

  /**
   * Re-seals entries of older terms with the active one, a batch at a time, then retires the older terms. Progress is
   * stored after each batch, so a rewrap interrupted by a crash resumes where it stopped.
   */
  async rewrap(options: RewrapOptions = {}): Promise<RewrapReport> {
    return runRewrap(
      {
        storage: this.inner,
        keyring: this.keyring,
        reserved: RESERVED_FOLDER,
        cursorKey: `${RESERVED_FOLDER}rewrap`,
        rewrapKey: (key, term) => this.rewrapKey(key, term),
      },
      options,
    );
  }

  async keyringStatus(): Promise<KeyringStatus> {
    const keyring = (await this.keyring.refresh()).keyring;
    return { active: keyring.active, terms: keyring.terms, retired: [...keyring.document.retired] };
  }

  /**
   * The plaintext of `sealed` with the keys of `keyring`, or undefined when its term is not among them. `spare`: the
   * caller owns `sealed` and no longer needs it, so a remembered plaintext may be copied over it.
   */
  private openWith(keyring: Keyring, key: string, sealed: Uint8Array, spare = false): Uint8Array | undefined {
    const known = this.opened.lookup(key, sealed);
    // A remembered value of a term retired since is refused like any other value of that term.
    if (known && keyring.keyOf(known.term)) {
      // The remembered sealed bytes stay untouched even if a storage answered that very array.
      return spare && known.sealed !== sealed ? copyOver(sealed, known.plaintext) : copyOf(known.plaintext);
    }
    const term = termOf(sealed, key);
    const termKey = keyring.keyOf(term);
    if (!termKey) return undefined;
    const plaintext = open(termKey, sealed, key);
    this.opened.remember(key, sealed, copyOf(plaintext), term);
    return plaintext;
  }

  private async openValue(key: string, sealed: Uint8Array): Promise<Uint8Array> {
    const opened = this.openWith(this.keyring.known ?? (await this.keyring.current()), key, sealed);
    if (opened) return opened;
    // A term this process has not seen may come from another process's rotation.
    const keyring = (await this.keyring.refresh()).keyring;
    const plaintext = this.openWith(keyring, key, sealed);
    if (plaintext) return plaintext;
    const term = termOf(sealed, key);
    const why = keyring.isRetired(term) ? 'which was retired' : 'which this keyring does not hold';
    throw new UnknownKeyTerm(`stored entry ${JSON.stringify(key)} is sealed under key term ${term}, ${why}`);
  }

  private async sealFor(key: string, value: Uint8Array): Promise<Written> {
    return sealWith(this.keyring.known ?? (await this.keyring.current()), key, value);
  }

  /** Once a write has landed, a read of what it wrote needs no decryption. */
  private remember(written: Written): void {
    this.opened.remember(written.key, written.sealed, written.plaintext, written.term);
  }

  /**
   * Several processes: a writer whose keyring was older than a rotation may have sealed with a term that a concurrent
   * rewrap has already passed and will retire. The keyring read after the write lands tells: a write sealed under
   * another term than the active one is sealed again (unless someone replaced it meanwhile). The term each write used
   * is what counts, not whether this process's keyring changed since: another caller may have refreshed it meanwhile.
   */
  private confirm(writes: readonly Written[]): Promise<void> | undefined {
    if (!this.inner.compareAndPut || writes.length === 0) return undefined;
    return this.keyring.latest().then((keyring) => (writes.some((write) => write.term !== keyring.active) ? this.reseal(keyring, writes) : undefined));
  }

  private async reseal(keyring: Keyring, writes: readonly Written[]): Promise<void> {
    for (const write of writes) {
      if (write.term === keyring.active) continue;
      const again = { ...write, term: keyring.active, sealed: seal(keyring.activeKey, keyring.active, write.key, write.plaintext) };
      if (await this.inner.compareAndPut!(write.key, write.sealed, again.sealed)) this.remember(again);
    }
  }

  private async exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.inner.compareAndPut ? task() : this.keyLocks.run(key, task);
  }

  /**
   * Whether `stored` opens to exactly `expected` (undefined: both absent). Answered in place, without a copy or a
   * wait, when the cache holds exactly `stored` under a live term.
   */
  private holdsPlaintext(key: string, stored: Uint8Array | undefined, expected: Uint8Array | undefined): boolean | Promise<boolean> {
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
    return this.inner.get(key).then(async (stored) => ((await this.holdsPlaintext(key, stored, expected ?? undefined)) ? stored : false));
  }

  private async putIfPlaintext(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean> {
    checkKey(key);
    const cas = this.inner.compareAndPut!.bind(this.inner);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const stored = await this.storedHolding(key, expected ?? null, attempt === 0);
      if (stored === false) return false;
      const written = sealWith(this.keyring.known ?? (await this.keyring.current()), key, value);
      if (await cas(key, stored, written.sealed)) {
        this.remember(written);
        await this.confirm([written]);
        return true;
      }
      // The key exists after all, or its ciphertext changed while its plaintext may not have (a re-seal): read it.
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
  }

  private async deleteIfPlaintext(key: string, expected: Uint8Array): Promise<boolean> {
    checkKey(key);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const stored = await this.storedHolding(key, expected, attempt === 0);
      if (stored === false) return false;
      if (await this.inner.compareAndDelete!(key, stored as Uint8Array)) {
        this.opened.forget(key);
        return true;
      }
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
  }

  /** Conditions become conditions on the exact ciphertexts read; a commit refused for a changed ciphertext is retried. */
  private async commitSealed(operations: readonly StorageOperation[]): Promise<boolean> {
    for (const operation of operations) checkKey(operation.key);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const conditions = this.conditionsOf(operations, attempt === 0);
      // Guesses from the cache need no wait; only reads do.
      const stored = isPromise(conditions) ? await conditions : conditions;
      if (!stored) return false;
      // After the checks, which may have loaded a newer keyring while opening a value.
      const keyring = this.keyring.known ?? (await this.keyring.current());
      const plaintexts = snapshotsOf(operations);
      const sealed: StorageOperation[] = [];
      const writes: Written[] = [];
      for (let index = 0; index < operations.length; index++) {
        const { key, expected } = operations[index]!;
        const plaintext = plaintexts[index];
        let next: StorageOperation = { type: 'delete', key };
        if (plaintext) {
          const written = sealOwned(keyring, key, plaintext);
          writes.push(written);
          next = { type: 'put', key, value: written.sealed };
        }
        if (expected !== undefined) next.expected = stored[index] ?? null;
        sealed.push(next);
      }
      if (await this.inner.commit!(sealed)) {
        for (const operation of operations) if (operation.type === 'delete') this.opened.forget(operation.key);
        for (const written of writes) this.remember(written);
        await this.confirm(writes);
        return true;
      }
      // A condition failed against the ciphertexts read: the next round tells a real change from a re-seal.
    }
    throw new InternalError('too many concurrent writers on the keys of a commit');
  }

  /**
   * The exact stored bytes each conditioned operation is to be made against (undefined for an unconditioned one), or
   * undefined when a condition fails; a promise only when some condition needs a read, and then all reads run at once.
   */
  private conditionsOf(operations: readonly StorageOperation[], guess: boolean): StoredConditions | Promise<StoredConditions> {
    const conditions: (Condition | Promise<Condition>)[] = [];
    let reads = false;
    for (const { key, expected } of operations) {
      const condition = expected === undefined ? undefined : this.storedHolding(key, expected, guess);
      reads ||= isPromise(condition);
      conditions.push(condition);
    }
    return reads ? Promise.all(conditions).then(unlessRefused) : unlessRefused(conditions as Condition[]);
  }

  private async visiblePage(prefix: string, options: ListPageOptions): Promise<string[]> {
    if (prefix.startsWith(RESERVED_FOLDER)) return [];
    if (prefix !== '') return this.inner.listPage!(prefix, options);
    // Ask for as many more names as could be hidden, so a full page stays full.
    const extra = options.recursive ? RESERVED_KEYS : 1;
    const names = await this.inner.listPage!(prefix, { ...options, limit: options.limit + extra });
    return names.filter((name) => !name.startsWith(RESERVED_FOLDER)).slice(0, options.limit);
  }

  /** Re-seals one entry with the active term unless it already is, or is gone; answers whether it did. */
  private async rewrapKey(key: string, active: number): Promise<boolean> {
    return this.exclusive(key, async () => {
      for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
        const stored = await this.inner.get(key);
        if (stored === undefined || termOf(stored, key) >= active) return false;
        const written = await this.sealFor(key, await this.openValue(key, stored));
        if (this.inner.compareAndPut && !(await this.inner.compareAndPut(key, stored, written.sealed))) continue;
        if (!this.inner.compareAndPut) await this.inner.put(key, written.sealed);
        this.remember(written);
        return true;
      }
      throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
    });
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

/** Seals a snapshot of `value`: what the cache remembers is exactly what was sealed, whatever the caller does next. */
function sealWith(keyring: Keyring, key: string, value: Uint8Array): Written {
  return sealOwned(keyring, key, copyOf(value));
}

/** Seals `plaintext`, an array of the barrier's own that nobody else holds, with the active term. */
function sealOwned(keyring: Keyring, key: string, plaintext: Uint8Array): Written {
  return { key, plaintext, term: keyring.active, sealed: seal(keyring.activeKey, keyring.active, key, plaintext) };
}

function unlessRefused(conditions: Condition[]): StoredConditions {
  return conditions.includes(false) ? undefined : (conditions as (Uint8Array | undefined)[]);
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}

function checkKey(key: string): void {
  if (key.startsWith(RESERVED_FOLDER)) throw new Error(`the storage key ${JSON.stringify(key)} is reserved for the keyring`);
}
