import { sameBytes } from '../core/bytes.js';
import { InternalError, InvalidRequest } from '../core/errors.js';
import { AtomicChanges } from './atomic-changes.js';
import { KeyedMutex } from '../core/lock.js';
import { CorruptDocument, encodeJson, type JsonStore, unchanged, type UpdateResult } from '../core/stored-json.js';
import { ConfirmedCleanups } from './confirmed-cleanups.js';
import { DecodedHeads } from './decoded-heads.js';
import { EntryDocuments, leavingHead, StaleRead } from './entry-documents.js';
import { KeyTransfer, type TransferOptions, type Transferred } from './key-transfer.js';
import type { StoredMetadata, StoredVersion } from './records.js';
import { timedBlobId, type StorageLayout } from './storage-layout.js';
import { dataInDocument, destroy, findVersion, keptRange, pruned, range } from './versions.js';

/**
 * Storage access for keys: their head records, entry documents and version blobs. The consistency model:
 * - a key's head record is the source of truth and its commit point. It holds the newest version's entry, any entries
 *   the last change altered, and (while the key keeps at most INLINE_ENTRIES versions) the others; every other kept version's entry is in its
 *   entry document (EntryDocuments), written before the head that stops holding it inline commits. Blobs are written before the record that references them and
 *   removed only after a committed record stopped referencing them;
 * - in-process, changes to one key run under its lock; across processes, the head is committed through compareAndPut
 *   (JsonStore.update) and the change is re-run on conflict, removing the blobs of the lost attempt;
 * - blobs a record stops referencing are listed in its `garbage`, and pruned entry documents in its `retired`, until
 *   their removal is confirmed; every later change of the key retries them, so a failed delete never leaves secret
 *   data behind for good.
 */

const MAX_STALE_READS = 8;

/**
 * Versions a key keeps with every entry inline in its head record: the default max_versions, so that a key with the
 * default keeps the single-record layout (nothing to spill or retire on a write). A key keeping more holds only the
 * newest entry (and those its last change altered) inline, so its head is the size of a one-version key's.
 */
const INLINE_ENTRIES = 10;
const MAX_REMOVE_ROUNDS = 16;

/**
 * Over a storage without atomic commits, a change whose blobs and entry documents were written this long ago refuses
 * to commit: the orphan reclaim (orphan-reclaim.ts) then knows that anything older than its grace period, which is
 * longer, can no longer become referenced.
 */
export const WRITER_DEADLINE_MS = 60_000;

/**
 * Data documents (data-documents.ts) are written only within an atomic commit: a change written ahead of its commit
 * could not keep their rules. Over a storage without atomic commits such a key can be read and deleted, not changed.
 */
const NEEDS_ATOMIC_COMMITS = 'this key keeps its versions in data documents, which only a storage with atomic commits can change';

const CLEANUP_WARNING = 'error occurred when cleaning up old versions, these will be cleaned up on the next change to this key';

/** Stores the data of a new version and answers its blob id. */
export type Stage = (data: Record<string, unknown>) => Promise<string>;

export interface Change<R> {
  /** The new record, or `unchanged` to write nothing. */
  next: StoredMetadata | typeof unchanged;
  /** Blobs the new record no longer references. */
  dropped?: readonly string[];
  result: R;
}

export type ChangeFunction<R> = (current: StoredMetadata | undefined, stage: Stage) => Promise<Change<R>>;

export interface Committed<R> {
  result: R;
  /** The record as stored afterwards (undefined for a key that does not exist). */
  stored: StoredMetadata | undefined;
  /** Blobs whose removal failed; they stay in the record's garbage. */
  pending: string[];
  warnings: string[];
}

export interface CommitOptions {
  /** Versions whose entries the change needs in the record it is given, besides the inline ones. */
  load?: (current: StoredMetadata) => readonly number[];
  /** Keep every loaded entry inline, changed or not, so that no entry document is authoritative afterwards. */
  inlineAll?: boolean;
}

function sameRecord(a: StoredMetadata | undefined, b: StoredMetadata | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A read of a version's data started on the strength of a remembered head (see `KeyStore.prefetchLatest`). */
export interface LatestPrefetch {
  record: StoredMetadata;
  entry: StoredVersion;
  data: Promise<Record<string, unknown> | undefined>;
}

export class KeyStore {
  private readonly mutex = new KeyedMutex();
  private readonly entries: EntryDocuments;
  private readonly cleanups = new ConfirmedCleanups();
  private readonly heads: DecodedHeads;
  private readonly atomic: AtomicChanges | undefined;
  private readonly transfers: KeyTransfer | undefined;

  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
    private readonly now: () => number,
  ) {
    this.entries = new EntryDocuments(json);
    this.heads = new DecodedHeads(json);
    this.atomic = json.canCommit ? new AtomicChanges(json, layout, this.entries, this.heads, now, INLINE_ENTRIES) : undefined;
    this.transfers = this.atomic && new KeyTransfer(json, layout, this.entries, this.atomic, now);
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

  /** The entry of a kept version, inline or from its document (callers run inside `consistent`). */
  async version(path: string, key: StoredMetadata, version: number): Promise<StoredVersion | undefined> {
    const inline = findVersion(key, version);
    if (inline) return inline;
    const { from, to } = keptRange(key);
    return version >= from && version <= to ? this.entries.read(this.layout.entries(path), version) : undefined;
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
        : await this.json.get<Record<string, unknown>>(this.layout.blob(version.blob));
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
    const data = this.json.get<Record<string, unknown>>(this.layout.blob(entry.blob));
    // Unused when the head changed meanwhile: its failure then concerns nobody.
    data.catch(() => undefined);
    return { record, entry, data };
  }

  /** Runs a read again when a document vanished under it; a record that keeps pointing at a missing one is a fault. */
  async consistent<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (!(error instanceof StaleRead)) throw error;
        if (attempt >= MAX_STALE_READS) throw new InternalError('could not find version data');
      }
    }
  }

  /**
   * One read-modify-write of a key's record, under the key's lock, committed atomically when the storage allows. The
   * change sees the inline entries plus those of the `versions` it names.
   */
  change<R>(path: string, change: ChangeFunction<R>, versions?: readonly number[]): Promise<Committed<R>> {
    const key = this.layout.metadata(path);
    const options = versions ? { load: () => versions } : {};
    const { atomic } = this;
    const run = atomic ? () => atomic.change(path, change, options) : () => this.commit(path, change, options);
    return this.mutex.run(key, () => this.consistent(run));
  }

  /**
   * Removes a key and all its versions: in one commit where the storage has them. Otherwise the record is first
   * committed with every version inline and destroyed, then the blobs and entry documents go, and only then the record
   * (only if unchanged, atomically where the storage can): a failure at any step leaves a readable key that a retried
   * delete finishes.
   */
  remove(path: string): Promise<void> {
    const key = this.layout.metadata(path);
    const { atomic } = this;
    if (atomic) return this.mutex.run(key, () => this.consistent(() => atomic.remove(path)));
    const options: CommitOptions = { load: (current) => range(keptRange(current).from, current.current_version), inlineAll: true };
    return this.mutex.run(key, async () => {
      for (let round = 0; round < MAX_REMOVE_ROUNDS; round++) {
        const { stored, pending } = await this.commit(
          path,
          async (current) => {
            // Committed even when nothing changed, so that every entry is inline before the documents go.
            const destroyed = current && destroy(current, current.versions.map((entry) => entry.version));
            return { next: destroyed?.next ?? current ?? unchanged, dropped: destroyed?.dropped, result: undefined };
          },
          options,
        );
        if (!stored) return;
        if (pending.length > 0) throw new InternalError('removing the data of the destroyed versions failed; retry the delete');
        await this.entries.removeThrough(this.layout.entries(path), stored.current_version);
        // Another process may have changed the key since: then destroy what it added and try again.
        const raw = await this.json.getRaw(key);
        if (raw === undefined || (sameBytes(raw, encodeJson(stored)) && (await this.json.deleteIfUnchanged(key, raw)))) {
          return this.cleanups.confirm(key, [], []);
        }
      }
      throw new InternalError('the key kept changing while it was being deleted');
    });
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

  private async commit<R>(path: string, change: ChangeFunction<R>, options: CommitOptions): Promise<Committed<R>> {
    const key = this.layout.metadata(path);
    const folder = this.layout.entries(path);
    const staged: string[] = [];
    let started = this.now();
    const stage: Stage = async (data) => {
      const id = timedBlobId(started);
      staged.push(id);
      await this.json.put(this.layout.blob(id), data);
      return id;
    };
    let outcome!: Change<R>;
    let leftover: string[] = [];
    let dropped: string[] = [];
    let retired: number[] = [];
    // Pruned entry documents of earlier changes whose removal failed again: they stay retired.
    let unretiredBefore: number[] = [];
    // Blobs of attempts that lost the race whose removal failed: retried on each attempt, then kept as garbage.
    let lost: string[] = [];
    let update: UpdateResult<StoredMetadata>;
    try {
      update = await this.json.update<StoredMetadata>(key, async (current) => {
        if (current?.documents_from !== undefined && options.inlineAll !== true) throw new InternalError(NEEDS_ATOMIC_COMMITS);
        started = this.now();
        // Only a previous attempt that lost the race to another writer leaves staged blobs: nothing references them.
        lost = await this.removeBlobs([...lost, ...staged.splice(0)]);
        const confirmed = current !== undefined && this.cleanups.isConfirmed(key, current.garbage, current.retired);
        leftover = [...lost, ...(confirmed ? [] : await this.removeBlobs(current?.garbage ?? []))];
        unretiredBefore = confirmed ? [] : await this.entries.retire(folder, current?.retired ?? []);
        const view = current && options.load ? await this.entries.withEntries(folder, current, options.load(current), options.inlineAll) : current;
        outcome = await change(view, stage);
        if (outcome.next === unchanged) {
          retired = [];
          dropped = [...(outcome.dropped ?? [])];
          const garbage = [...leftover, ...dropped];
          if (!current) return unchanged;
          const tidier = lost.length > 0 || garbage.length < current.garbage.length || unretiredBefore.length < current.retired.length;
          return tidier ? { ...current, garbage, retired: unretiredBefore, revision: current.revision + 1 } : unchanged;
        }
        retired = pruned(current, outcome.next);
        const [prunedBlobs, { versions, spilled }] = await Promise.all([
          this.entries.spilledBlobs(folder, view, retired),
          this.spill(key, folder, current, view, outcome.next, options.inlineAll === true),
        ]);
        dropped = [...(outcome.dropped ?? []), ...prunedBlobs];
        const garbage = [...leftover, ...dropped];
        const revision = (current?.revision ?? 0) + 1;
        if (this.now() - started > WRITER_DEADLINE_MS) throw new InternalError('the change took too long to commit; retry it');
        return { ...outcome.next, versions, spilled: Math.max(current?.spilled ?? 0, spilled), garbage, retired: [...unretiredBefore, ...retired], revision };
      });
    } catch (error) {
      await this.discardUnreferenced(key, [...lost, ...staged]);
      throw error;
    }
    const [failed, unretired] = await Promise.all([this.removeBlobs(dropped), this.entries.retire(folder, retired)]);
    const pending = [...leftover, ...failed];
    const stored = update.next;
    const clean = pending.length === 0 && unretiredBefore.length === 0 && unretired.length === 0;
    if (stored && update.written) this.cleanups.confirm(key, clean ? stored.garbage : [], clean ? stored.retired : []);
    const warnings = pending.length > 0 || unretired.length > 0 ? [CLEANUP_WARNING] : [];
    return { result: outcome.result, stored, pending, warnings };
  }

  /**
   * Writes the entries that leave the head to their documents (before the head commits without them); answers the
   * inline entries of the next record and the highest version spilled (0: none).
   */
  private async spill(
    key: string,
    folder: string,
    current: StoredMetadata | undefined,
    view: StoredMetadata | undefined,
    next: StoredMetadata,
    inlineAll: boolean,
  ): Promise<{ versions: StoredVersion[]; spilled: number }> {
    const { keep, out } = leavingHead(current, view, next, inlineAll, INLINE_ENTRIES);
    const headUnchanged = async () => sameRecord(await this.json.get<StoredMetadata>(key), current);
    const time = this.now();
    await Promise.all(out.map((entry) => this.entries.spill(folder, entry, time, headUnchanged)));
    return { versions: keep, spilled: out.at(-1)?.version ?? 0 };
  }

  /** Removes blobs and answers the ids whose removal failed. */
  private removeBlobs(ids: readonly string[]): Promise<string[]> {
    return this.json.deleteEach(ids, (id) => this.layout.blob(id));
  }

  /**
   * After a failed commit, removes the staged blobs no record references. A commit whose failure was reported after it
   * took effect keeps its blobs; if even this check fails, the blobs stay as orphans that no read ever reaches.
   */
  private async discardUnreferenced(key: string, staged: readonly string[]): Promise<void> {
    if (staged.length === 0) return;
    try {
      const record = await this.json.get<StoredMetadata>(key);
      const referenced = new Set(record?.versions.map((entry) => entry.blob));
      await this.removeBlobs(staged.filter((id) => !referenced.has(id)));
    } catch {
      // See above: an orphan blob is unreachable, not inconsistent.
    }
  }
}
