import { UnknownKeyTerm } from '../lib/errors.js';
import { promiseOf } from '../lib/calls.js';
import { KeyedMutex } from '../core/store/lock.js';
import type { Clock } from '../ports/clock.js';
import type { RootKeyProvider } from '../ports/root-key.js';
import type { ListPageOptions, Storage } from '../ports/storage.js';
import { systemClock } from '../lib/clocks.js';
import { ConditionalWrites } from './conditional-writes.js';
import { KeyringStore } from './keyring-store.js';
import type { Keyring } from './keyring.js';
import { runRewrap, type RewrapOptions, type RewrapReport } from './rewrap.js';
import { copyOf, copyOver, OpenedCache } from './opened-cache.js';
import { checkKey, RESERVED_FOLDER } from './reserved-folder.js';
import { confirm, MAX_CONFLICTS, remember, sealWith, tooManyWriters, type Written } from './sealed-writes.js';
import { open, termOf } from './sealed-value.js';
import { StaticRootKey } from './static-root-key.js';

/** Options of `EncryptedStorage`; `storage` and `key` are required. */
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

/** What `keyringStatus()` answers: the key terms of the keyring. */
export interface KeyringStatus {
  /** The term new writes are sealed with. */
  active: number;
  /** Every term whose key the keyring holds, the active one included. */
  terms: number[];
  /** Terms whose keys are destroyed: nothing readable is sealed with them any more. */
  retired: number[];
  /** When the active term was made (ISO 8601): Vault's `install_time`. */
  activeSince: string;
}

const KEYRING_KEY = `${RESERVED_FOLDER}keyring`;

const isProvider = (key: unknown): key is RootKeyProvider =>
  typeof (key as RootKeyProvider | null)?.wrapKey === 'function' &&
  typeof (key as RootKeyProvider).unwrapKey === 'function';

/**
 * The root key provider the options name, refusing at construction what would otherwise fail inside open() with a
 * TypeError that says nothing: no storage, no key, base64 text where bytes belong, a negative cache size.
 */
function checkedProvider(options: EncryptedStorageOptions): RootKeyProvider {
  if (typeof options?.storage !== 'object' || options.storage === null)
    throw new TypeError('EncryptedStorage needs a storage to wrap');
  const { key, cacheBytes } = options;
  if (cacheBytes !== undefined && !(typeof cacheBytes === 'number' && cacheBytes >= 0)) {
    throw new TypeError('cacheBytes must be a number of bytes, 0 or more');
  }
  if (key instanceof Uint8Array) return new StaticRootKey(key);
  if (isProvider(key)) return key;
  const rule = 'EncryptedStorage needs a key: 32 bytes (a Uint8Array) or a root key provider (wrapKey and unwrapKey)';
  throw new TypeError(typeof key === 'string' ? `${rule}; for base64 text, use StaticRootKey.fromBase64(text)` : rule);
}
const RESERVED_KEYS = 2;

/**
 * Whether `storage` (the storage EncryptedStorage would wrap) already holds a keyring, that is, was encrypted under
 * some root key: a program that would otherwise make a new root key can refuse instead.
 */
export async function holdsKeyring(storage: Storage): Promise<boolean> {
  return (await storage.get(KEYRING_KEY)) !== undefined;
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

  /**
   * Checks the options (a TypeError for a missing storage or key, or base64 text where bytes belong); nothing is read
   * before the first operation or `open()`.
   */
  constructor(options: EncryptedStorageOptions) {
    const provider = checkedProvider(options);
    this.inner = options.storage;
    this.clock = options.clock ?? systemClock;
    this.opened = new OpenedCache(options.cacheBytes ?? 8 * 1024 * 1024);
    this.keyring = new KeyringStore(this.inner, provider, KEYRING_KEY, () => this.clock.now());
    const inner = this.inner;
    const conditional = new ConditionalWrites(inner, this.keyring, this.opened, (key, sealed) =>
      this.openValue(key, sealed),
    );
    const members: Partial<Storage> = {};
    if (inner.compareAndPut)
      members.compareAndPut = (key, expected, value) => conditional.putIfPlaintext(key, expected, value);
    if (inner.compareAndDelete)
      members.compareAndDelete = (key, expected) => conditional.deleteIfPlaintext(key, expected);
    if (inner.commit) members.commit = (operations) => conditional.commitSealed(operations);
    if (inner.listPage) members.listPage = (prefix, options) => this.visiblePage(prefix, options);
    // Notifications carry key names only, which are not sealed; the keyring's own keys stay hidden as in listings.
    if (inner.watch) {
      members.watch = (prefix, handlers) =>
        inner.watch!(prefix, {
          changed: (key) => key.startsWith(RESERVED_FOLDER) || handlers.changed(key),
          reset: () => handlers.reset(),
        });
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

  /**
   * The opened value. Rejects with SealedValueInvalid when the stored bytes do not open (altered, truncated, copied
   * from another key), with UnknownKeyTerm when their key term is retired or unknown, and with WrongRootKey as
   * `open()` does. Keys in `.encryption/`, the keyring's folder, are refused. Chained with `.then` rather than async:
   * reads are the hottest calls there are (lib/calls.ts).
   */
  get(key: string): Promise<Uint8Array | undefined> {
    return promiseOf(() => {
      checkKey(key);
      return this.inner.get(key);
    }).then((sealed) => {
      if (sealed === undefined) {
        this.opened.forget(key);
        return undefined;
      }
      const keyring = this.keyring.known;
      // Only a storage that promises fresh arrays answered one of this reader's own, which the plaintext may overwrite.
      return (
        (keyring && this.openWith(keyring, key, sealed, this.inner.answersCopies === true)) ||
        this.openValue(key, sealed)
      );
    });
  }

  /** Seals the value with the active key term and writes it; keys in `.encryption/` are refused. */
  async put(key: string, value: Uint8Array): Promise<void> {
    checkKey(key);
    const written = await this.sealFor(key, value);
    await this.exclusive(key, () => this.inner.put(key, written.sealed));
    remember(this.opened, written);
    await confirm(this.inner, this.keyring, this.opened, [written]);
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

  /**
   * Closes the wrapped storage, when it has a `close()` (as SqliteStorage and PostgresStorage do), so that whoever
   * holds only this storage can shut it down; later operations reject as the wrapped storage's do. Call it once the
   * engines have finished their requests.
   */
  async close(): Promise<void> {
    // The Storage port has no close(): the adapters that hold a file or connections add one.
    const inner = this.inner as Storage & { close?: () => Promise<void> };
    await inner.close?.();
  }

  /** The key terms as stored now: the keyring is read again, so another process's rotation shows. */
  async keyringStatus(): Promise<KeyringStatus> {
    const keyring = (await this.keyring.refresh()).keyring;
    const active = keyring.document.terms.find((entry) => entry.term === keyring.active)!;
    return {
      active: keyring.active,
      terms: keyring.terms,
      retired: [...keyring.document.retired],
      activeSince: active.createdAt,
    };
  }

  /**
   * Seals the keyring under another root key (32 bytes or a provider), online: the data keys stay as they are, and
   * processes that opened the keyring with the old root key keep serving. From then on only `key` opens the stored
   * keyring; the old root key opens only copies taken before (backups).
   */
  async rekey(key: Uint8Array | RootKeyProvider): Promise<void> {
    await this.keyring.rekey(checkedProvider({ storage: this.inner, key }));
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

  private async exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.inner.compareAndPut ? task() : this.keyLocks.run(key, task);
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
        remember(this.opened, written);
        return true;
      }
      throw tooManyWriters(key);
    });
  }
}
