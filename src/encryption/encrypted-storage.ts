import { InternalError, UnknownKeyTerm } from '../core/errors.js';
import { KeyedMutex } from '../core/lock.js';
import type { Clock } from '../ports/clock.js';
import type { RootKeyProvider } from '../ports/root-key.js';
import type { ListPageOptions, Storage, StorageOperation } from '../ports/storage.js';
import { systemClock } from '../core/system-clock.js';
import { KeyringStore, sameBytes } from './keyring-store.js';
import { runRewrap, type RewrapOptions, type RewrapReport } from './rewrap.js';
import { open, seal, termOf } from './sealed-value.js';
import { StaticRootKey } from './static-root-key.js';

export interface EncryptedStorageOptions {
  /** Where the sealed values (and the keyring) are stored. */
  storage: Storage;
  /** The root key: 32 bytes, or a provider such as `StaticRootKey` or `KmsRootKey`. */
  key: Uint8Array | RootKeyProvider;
  /** Dates the keyring's terms; default the system clock. */
  clock?: Clock;
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

/** A value written under `term`, kept until the write is confirmed against the stored keyring. */
interface Written {
  key: string;
  sealed: Uint8Array;
  plaintext: Uint8Array;
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

  private readonly inner: Storage;
  private readonly keyring: KeyringStore;
  private readonly clock: Clock;
  /** Serialises writes and rewraps of one key when the wrapped storage has no compare-and-put to do it. */
  private readonly keyLocks = new KeyedMutex();

  constructor(options: EncryptedStorageOptions) {
    this.inner = options.storage;
    this.clock = options.clock ?? systemClock;
    const provider = options.key instanceof Uint8Array ? new StaticRootKey(options.key) : options.key;
    this.keyring = new KeyringStore(this.inner, provider, KEYRING_KEY, () => this.clock.now());
    const inner = this.inner;
    const members: Partial<Storage> = {};
    if (inner.compareAndPut) members.compareAndPut = (key, expected, value) => this.putIfPlaintext(key, expected, value);
    if (inner.compareAndDelete) members.compareAndDelete = (key, expected) => this.deleteIfPlaintext(key, expected);
    if (inner.commit) members.commit = (operations) => this.commitSealed(operations);
    if (inner.listPage) members.listPage = (prefix, options) => this.visiblePage(prefix, options);
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
    return sealed === undefined ? undefined : this.openValue(key, sealed);
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    checkKey(key);
    const written = await this.sealFor(key, value);
    await this.exclusive(key, () => this.inner.put(key, written.sealed));
    await this.confirm([written]);
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.exclusive(key, () => this.inner.delete(key));
  }

  async list(prefix: string): Promise<string[]> {
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

  private async openValue(key: string, sealed: Uint8Array): Promise<Uint8Array> {
    const term = termOf(sealed, key);
    let keyring = await this.keyring.current();
    // A term this process has not seen may come from another process's rotation.
    if (!keyring.keyOf(term)) keyring = (await this.keyring.refresh()).keyring;
    const termKey = keyring.keyOf(term);
    if (!termKey) {
      const why = keyring.isRetired(term) ? 'which was retired' : 'which this keyring does not hold';
      throw new UnknownKeyTerm(`stored entry ${JSON.stringify(key)} is sealed under key term ${term}, ${why}`);
    }
    return open(termKey, sealed, key);
  }

  private async sealFor(key: string, plaintext: Uint8Array): Promise<Written> {
    const keyring = await this.keyring.current();
    return { key, plaintext, sealed: seal(keyring.activeKey, keyring.active, key, plaintext) };
  }

  /**
   * Several processes: a writer whose keyring was older than a rotation may have sealed with a term that a concurrent
   * rewrap has already passed and will retire. Reading the keyring after the write tells: when it changed and the
   * active term is another, the writer seals its own value again (unless someone replaced it meanwhile).
   */
  private async confirm(writes: readonly Written[]): Promise<void> {
    const cas = this.inner.compareAndPut?.bind(this.inner);
    if (!cas || writes.length === 0 || (await this.keyring.unchanged())) return;
    const keyring = await this.keyring.current();
    for (const write of writes) {
      if (termOf(write.sealed, write.key) === keyring.active) continue;
      await cas(write.key, write.sealed, seal(keyring.activeKey, keyring.active, write.key, write.plaintext));
    }
  }

  private async exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.inner.compareAndPut ? task() : this.keyLocks.run(key, task);
  }

  /** Whether `stored` opens to exactly `expected` (undefined: both absent). */
  private async holdsPlaintext(key: string, stored: Uint8Array | undefined, expected: Uint8Array | undefined): Promise<boolean> {
    if (stored === undefined || expected === undefined) return stored === expected;
    return sameBytes(await this.openValue(key, stored), expected);
  }

  private async putIfPlaintext(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean> {
    checkKey(key);
    const cas = this.inner.compareAndPut!.bind(this.inner);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      // Creating needs no read: the wrapped storage's own answer is exact.
      const stored = expected === undefined && attempt === 0 ? undefined : await this.inner.get(key);
      if (!(await this.holdsPlaintext(key, stored, expected))) return false;
      const written = await this.sealFor(key, value);
      if (await cas(key, stored, written.sealed)) {
        await this.confirm([written]);
        return true;
      }
      if (expected === undefined) return false;
      // Otherwise the ciphertext changed: the plaintext may not have (a rewrap), so compare again.
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
  }

  private async deleteIfPlaintext(key: string, expected: Uint8Array): Promise<boolean> {
    checkKey(key);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const stored = await this.inner.get(key);
      if (!(await this.holdsPlaintext(key, stored, expected))) return false;
      if (await this.inner.compareAndDelete!(key, stored as Uint8Array)) return true;
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
  }

  /** Conditions become conditions on the exact ciphertexts read; a commit refused for a changed ciphertext is retried. */
  private async commitSealed(operations: readonly StorageOperation[]): Promise<boolean> {
    for (const operation of operations) checkKey(operation.key);
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const stored = await Promise.all(
        operations.map((operation) => (operation.expected === undefined ? undefined : this.inner.get(operation.key))),
      );
      const sealed: StorageOperation[] = [];
      const writes: Written[] = [];
      for (const [index, operation] of operations.entries()) {
        const current = stored[index];
        let condition = {};
        if (operation.expected !== undefined) {
          if (!(await this.holdsPlaintext(operation.key, current, operation.expected ?? undefined))) return false;
          condition = { expected: current ?? null };
        }
        if (operation.type === 'delete') {
          sealed.push({ type: 'delete', key: operation.key, ...condition });
          continue;
        }
        const written = await this.sealFor(operation.key, operation.value);
        writes.push(written);
        sealed.push({ type: 'put', key: operation.key, value: written.sealed, ...condition });
      }
      if (await this.inner.commit!(sealed)) {
        await this.confirm(writes);
        return true;
      }
      // A condition failed against the ciphertexts read: the next round tells a real change from a re-seal.
    }
    throw new InternalError('too many concurrent writers on the keys of a commit');
  }

  private async visiblePage(prefix: string, options: ListPageOptions): Promise<string[]> {
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
        if (!this.inner.compareAndPut) {
          await this.inner.put(key, written.sealed);
          return true;
        }
        if (await this.inner.compareAndPut(key, stored, written.sealed)) return true;
      }
      throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
    });
  }
}

function checkKey(key: string): void {
  if (key.startsWith(RESERVED_FOLDER)) throw new Error(`the storage key ${JSON.stringify(key)} is reserved for the keyring`);
}
