import { InternalError, InvalidRequest } from '../../lib/errors.js';
import { promiseOf } from '../../lib/calls.js';
import { AtomicChanges } from './atomic-changes.js';
import { KeyedMutex } from '../../core/store/lock.js';
import { CorruptDocument, type JsonStore } from '../../core/store/stored-json.js';
import { DecodedHeads } from './decoded-heads.js';
import { EntryDocuments, StaleRead } from './entry-documents.js';
import type { ChangeFunction, Committed } from './key-change.js';
import { KeyTransfer, type TransferOptions, type Transferred } from './key-transfer.js';
import { OrderedChanges } from './ordered-changes.js';
import type { StoredMetadata, StoredVersion } from '../documents/head-document.js';
import type { StorageLayout } from '../documents/storage-layout.js';
import { readDocument } from '../documents/document-format.js';
import { versionBlob } from '../documents/version-blob.js';
import { dataInDocument, findVersion, keptRange, range } from '../rules/versions.js';

/**
 * Storage access for keys: their head records, entry documents and version blobs. The consistency model:
 * - a key's head record is the source of truth and its commit point. It holds the newest version's entry, any entries
 *   the last change altered, and (while the key keeps at most INLINE_ENTRIES versions) the others; every other kept version's entry is in its
 *   entry document (EntryDocuments), written before the head that stops holding it inline commits. Blobs are written before the record that references them and
 *   removed only after a committed record stopped referencing them;
 * - in-process, changes to one key run under its lock; a change commits as one atomic commit conditioned on the head
 *   (AtomicChanges) where the storage has them, otherwise in writes ordered so that the head commits last
 *   (OrderedChanges); either re-runs the change when another process changed the head first.
 */

const MAX_STALE_READS = 8;

/**
 * Versions a key keeps with every entry inline in its head record: the default max_versions, so that a key with the
 * default keeps the single-record layout (nothing to spill or retire on a write). A key keeping more holds only the
 * newest entry (and those its last change altered) inline, so its head is the size of a one-version key's.
 */
const INLINE_ENTRIES = 10;

/** A read of a version's data started on the strength of a remembered head (see `KeyStore.prefetchLatest`). */
export interface LatestPrefetch {
  record: StoredMetadata;
  entry: StoredVersion;
  data: Promise<Record<string, unknown> | undefined>;
}

export class KeyStore {
  private readonly mutex = new KeyedMutex();
  private readonly entries: EntryDocuments;
  private readonly heads: DecodedHeads;
  /** How changes commit: by whether the storage has atomic commits. */
  private readonly changes: AtomicChanges | OrderedChanges;
  private readonly transfers: KeyTransfer | undefined;

  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
    now: () => number,
  ) {
    this.entries = new EntryDocuments(json);
    this.heads = new DecodedHeads(json);
    const atomic = json.canCommit
      ? new AtomicChanges(json, layout, this.entries, this.heads, now, INLINE_ENTRIES)
      : undefined;
    this.changes = atomic ?? new OrderedChanges(json, layout, this.entries, now, INLINE_ENTRIES);
    this.transfers = atomic && new KeyTransfer(json, layout, this.entries, atomic, now);
  }

  async exists(path: string): Promise<boolean> {
    return (await this.json.getRaw(this.layout.metadata(path))) !== undefined;
  }

  /** The head record; only its inline entries are in `versions` (see `versions` for all of them). */
  read(path: string): Promise<StoredMetadata | undefined> {
    return this.heads.read(this.layout.metadata(path));
  }

  /** Names directly below a folder ('' or ending in '/'): keys, and sub-folders ending in '/'. */
  names(folder: string): Promise<string[]> {
    return this.json.list(this.layout.metadataFolder(folder));
  }

  /** Every key below a folder ('' or ending in '/'), relative to it, in byte order, read page by page. */
  keysBelow(folder: string): AsyncGenerator<string> {
    return this.json.keysBelow(this.layout.metadataFolder(folder));
  }

  /** Moves or copies a key with its whole history in one commit: only over a storage with atomic commits. */
  transfer(from: string, to: string, options: TransferOptions): Promise<Transferred> {
    const { transfers } = this;
    if (!transfers) throw new InvalidRequest('moving or copying a key needs a storage with atomic commits');
    return this.consistent(() => transfers.run(from, to, options));
  }

  /**
   * The entry of a kept version, inline or from its document (callers run inside `consistent`). Not async: an inline
   * entry, as the current version's is, costs no step of its own.
   */
  version(path: string, key: StoredMetadata, version: number): Promise<StoredVersion | undefined> {
    const inline = findVersion(key, version);
    if (inline) return Promise.resolve(inline);
    const { from, to } = keptRange(key);
    return version >= from && version <= to
      ? this.entries.read(this.layout.entries(path), version)
      : Promise.resolve(undefined);
  }

  /** Every kept version's entry, ascending (callers run inside `consistent`). */
  async versions(path: string, key: StoredMetadata): Promise<StoredVersion[]> {
    const { from, to } = keptRange(key);
    return (await this.entries.withEntries(this.layout.entries(path), key, range(from, to))).versions;
  }

  /** The data of a version of `key` that its record references (callers run inside `consistent` or `change`). */
  async data(path: string, key: StoredMetadata, version: StoredVersion): Promise<Record<string, unknown>> {
    const data = dataInDocument(key, version.version)
      ? await this.entries.data(this.layout.entries(path), version.version)
      : version.blob === undefined
        ? undefined
        : await readDocument(this.json, versionBlob, this.layout.blob(version.blob));
    if (data === undefined) throw new StaleRead();
    return data;
  }

  /**
   * Starts reading the data of the newest version of the head this engine last saw for `path`, before the head itself
   * is read, so that over a network database both reads share one round trip. The caller uses it only when the head
   * read answers that same record. Only for data under a blob id, which is never reused: a head equal to the one
   * remembered then references exactly the data read, whenever it was read.
   */
  prefetchLatest(path: string): LatestPrefetch | undefined {
    const record = this.heads.remembered(this.layout.metadata(path));
    const entry = record && findVersion(record, record.current_version);
    if (!record || entry?.blob === undefined || dataInDocument(record, entry.version)) return undefined;
    const data = readDocument(this.json, versionBlob, this.layout.blob(entry.blob));
    // Unused when the head changed meanwhile: its failure then concerns nobody.
    data.catch(() => undefined);
    return { record, entry, data };
  }

  /** Runs a read again when a document vanished under it; a record that keeps pointing at a missing one is a fault. */
  consistent<T>(read: () => Promise<T>): Promise<T> {
    return this.#tryConsistent(read, 1);
  }

  /** Try number `attempt` of `consistent`: chained with `.then`, as every read and change of a key runs in here. */
  #tryConsistent<T>(read: () => Promise<T>, attempt: number): Promise<T> {
    return promiseOf(read).then(undefined, (error: unknown) => {
      if (!(error instanceof StaleRead)) throw error;
      if (attempt >= MAX_STALE_READS) throw new InternalError('could not find version data');
      return this.#tryConsistent(read, attempt + 1);
    });
  }

  /**
   * One read-modify-write of a key's record, under the key's lock, committed atomically when the storage allows. The
   * change sees the inline entries plus those of the `versions` it names.
   */
  change<R>(path: string, change: ChangeFunction<R>, versions?: readonly number[]): Promise<Committed<R>> {
    const key = this.layout.metadata(path);
    const options = versions ? { load: () => versions } : {};
    const { changes } = this;
    return this.mutex.run(key, () => this.consistent(() => changes.change(path, change, options)));
  }

  /**
   * Removes a key and all its versions: in one commit where the storage has them, otherwise step by step in an order
   * that leaves a readable key at every step (OrderedChanges.remove).
   */
  remove(path: string): Promise<void> {
    const key = this.layout.metadata(path);
    const { changes } = this;
    if (changes instanceof AtomicChanges) return this.mutex.run(key, () => this.consistent(() => changes.remove(path)));
    return this.mutex.run(key, () => changes.remove(path));
  }

  /**
   * `remove`, for a key whose record (or one of its entries) has the wrong shape and so cannot be followed to its
   * versions: the record itself is deleted, which keeps every key repairable through the API. Documents it referenced
   * stay behind, unreferenced.
   */
  async removeEvenIfCorrupt(path: string): Promise<void> {
    try {
      await this.remove(path);
    } catch (error) {
      if (!(error instanceof CorruptDocument)) throw error;
      const key = this.layout.metadata(path);
      await this.mutex.run(key, () => this.json.update(key, () => undefined, { replaceCorrupt: true }));
    }
  }
}
