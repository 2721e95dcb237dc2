/**
 * Loads, creates and updates the keyring record in the wrapped storage, and keeps the last one seen. Several processes
 * may share the record: updates are compare-and-put against the exact bytes read, re-run on conflict.
 */
import { sameBytes } from '../lib/bytes.js';
import { randomBytes, type KeyObject } from 'node:crypto';
import { InternalError, SealedValueInvalid, WrongRootKey } from '../lib/errors.js';
import { KeyedMutex } from '../core/store/lock.js';
import type { RootKeyProvider } from '../ports/root-key.js';
import type { Storage } from '../ports/storage.js';
import { decodeRecord, encodeRecord, Keyring, wrappedKeyOf, type KeyringDocument } from './keyring.js';
import { aesKey, ROOT_KEY_LENGTH } from './static-root-key.js';

const MAX_CONFLICTS = 64;

interface Loaded {
  record: Uint8Array;
  wrapped: Uint8Array;
  keyringKey: KeyObject;
  keyring: Keyring;
}

/** The record's document if `keyringKey` opens it; undefined when another keyring key sealed it. */
function documentWith(record: Uint8Array, keyringKey: KeyObject, recordKey: string): KeyringDocument | undefined {
  try {
    return decodeRecord(record, keyringKey, recordKey);
  } catch (error) {
    if (error instanceof SealedValueInvalid) return undefined;
    throw error;
  }
}

export class KeyringStore {
  private loaded: Loaded | undefined;
  private pending: Promise<Loaded> | undefined;
  /** A wrong root key stays wrong: remembered, so a KMS is not asked again on every request. */
  private refusal: WrongRootKey | undefined;
  /** In-process updates run one at a time; other processes are kept out by compare-and-put. */
  private readonly updates = new KeyedMutex();
  /** Updates this store has written, to tell a read that overlapped one. */
  private writes = 0;

  constructor(
    private readonly storage: Storage,
    private provider: RootKeyProvider,
    readonly recordKey: string,
    private readonly now: () => Date,
  ) {}

  /** The keyring last seen, without waiting; undefined before the first load. */
  get known(): Keyring | undefined {
    return this.loaded?.keyring;
  }

  /** The keyring, loading (or creating) it on first use. */
  async current(): Promise<Keyring> {
    return (this.loaded ?? (await this.refresh())).keyring;
  }

  /** The keyring key, which seals the keyring's own companions (the rewrap cursor). */
  async keyringKey(): Promise<KeyObject> {
    return (this.loaded ?? (await this.refresh())).keyringKey;
  }

  /**
   * The keyring as stored once the caller's write has landed: a read of its own, never one shared with a read that
   * may have started earlier. Costs one read and a byte comparison while nothing changed.
   */
  latest(): Promise<Keyring> {
    const writes = this.writes;
    // Settled in the read's own callback while nothing changed: no further promise to wait for.
    return this.storage
      .get(this.recordKey)
      .then((record) =>
        record && this.loaded && sameBytes(this.loaded.record, record)
          ? this.loaded.keyring
          : this.adoptLatest(record, writes),
      );
  }

  private async adoptLatest(record: Uint8Array | undefined, writes: number): Promise<Keyring> {
    if (!record) return (await this.refresh()).keyring;
    const loaded = await this.adopt(record);
    if (writes === this.writes) this.loaded = loaded;
    return loaded.keyring;
  }

  /** Reads the record again; concurrent callers share one read. */
  async refresh(): Promise<Loaded> {
    if (this.refusal) throw this.refusal;
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Applies `change` to the stored keyring, against the exact record read; `undefined` changes nothing. */
  async update(change: (keyring: Keyring) => KeyringDocument | undefined): Promise<Keyring> {
    return this.updates.run(this.recordKey, () => this.updateOnce(change));
  }

  private async updateOnce(change: (keyring: Keyring) => KeyringDocument | undefined): Promise<Keyring> {
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const loaded = await this.refresh();
      const document = change(loaded.keyring);
      if (!document) return loaded.keyring;
      const record = encodeRecord(loaded.wrapped, loaded.keyringKey, this.recordKey, document);
      if (await this.write(loaded.record, record)) {
        this.writes += 1;
        this.loaded = { ...loaded, record, keyring: new Keyring(document) };
        return this.loaded.keyring;
      }
    }
    throw new InternalError('the keyring kept changing while it was being updated');
  }

  /**
   * Wraps the keyring key with `provider` instead and stores the record, against the exact record read; from then on
   * this store opens the keyring with `provider`. The new wrap is checked to unwrap before anything is written. The
   * keyring key itself stays, so processes that already hold it keep serving (see `adopt`).
   */
  async rekey(provider: RootKeyProvider): Promise<void> {
    await this.updates.run(this.recordKey, async () => {
      for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
        const loaded = await this.refresh();
        const secret = loaded.keyringKey.export();
        let wrapped: Uint8Array;
        try {
          wrapped = await provider.wrapKey(secret);
          if (!sameBytes(await provider.unwrapKey(wrapped), secret))
            throw new InternalError('the new root key does not unwrap what it wrapped');
        } finally {
          secret.fill(0);
        }
        const record = encodeRecord(wrapped, loaded.keyringKey, this.recordKey, loaded.keyring.document);
        if (await this.write(loaded.record, record)) {
          this.writes += 1;
          this.provider = provider;
          this.loaded = { ...loaded, record, wrapped };
          return;
        }
      }
      throw new InternalError('the keyring kept changing while it was being rekeyed');
    });
  }

  private async read(): Promise<Loaded> {
    const writes = this.writes;
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const record = await this.storage.get(this.recordKey);
      const loaded = record ? await this.adopt(record) : await this.create();
      if (loaded) {
        // A read that started before this store's own update finished may hold the record that update replaced.
        if (writes === this.writes) this.loaded = loaded;
        return this.loaded ?? loaded;
      }
    }
    throw new InternalError('the keyring kept changing while it was being created');
  }

  private async adopt(record: Uint8Array): Promise<Loaded> {
    const previous = this.loaded;
    if (previous && sameBytes(previous.record, record)) return previous;
    const wrapped = wrappedKeyOf(record, this.recordKey);
    let keyringKey = previous && sameBytes(previous.wrapped, wrapped) ? previous.keyringKey : undefined;
    // A rekey wraps the same keyring key under another root key: a running process whose root key is the old one
    // keeps serving, as long as the key it holds opens the document (which authenticates it).
    const document = !keyringKey && previous ? documentWith(record, previous.keyringKey, this.recordKey) : undefined;
    if (document) return { record, wrapped, keyringKey: previous!.keyringKey, keyring: new Keyring(document) };
    if (!keyringKey) {
      try {
        keyringKey = aesKey(await this.provider.unwrapKey(wrapped), 'the unwrapped keyring key');
      } catch (error) {
        if (error instanceof WrongRootKey) this.refusal = error;
        throw error;
      }
    }
    return { record, wrapped, keyringKey, keyring: new Keyring(decodeRecord(record, keyringKey, this.recordKey)) };
  }

  /** A first keyring; undefined when another writer created one meanwhile (the caller reads that one). */
  private async create(): Promise<Loaded | undefined> {
    const secret = randomBytes(ROOT_KEY_LENGTH);
    const keyringKey = aesKey(secret, 'the keyring key');
    const wrapped = await this.provider.wrapKey(secret);
    const document = Keyring.first(this.now());
    const record = encodeRecord(wrapped, keyringKey, this.recordKey, document);
    if (!(await this.write(undefined, record))) return undefined;
    return { record, wrapped, keyringKey, keyring: new Keyring(document) };
  }

  /** Without compareAndPut the storage serves one process, whose callers serialise through `pending` and `updates`. */
  private async write(expected: Uint8Array | undefined, record: Uint8Array): Promise<boolean> {
    if (this.storage.compareAndPut) return this.storage.compareAndPut(this.recordKey, expected, record);
    await this.storage.put(this.recordKey, record);
    return true;
  }
}
