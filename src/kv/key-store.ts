import { InternalError } from '../core/errors.js';
import { KeyedMutex } from '../core/lock.js';
import { type JsonStore, unchanged, type UpdateResult } from '../core/stored-json.js';
import type { StoredMetadata, StoredVersion } from './records.js';
import { newBlobId, type StorageLayout } from './storage-layout.js';
import { destroy } from './versions.js';

/**
 * Storage access for keys: their metadata records and version blobs. The consistency model:
 * - a key's record is the source of truth and its commit point; blobs are written before the record that references
 *   them and removed only after a committed record stopped referencing them;
 * - in-process, changes to one key run under its lock; across processes, the record is committed through
 *   compareAndPut (JsonStore.update) and the change is re-run on conflict, removing the blobs of the lost attempt;
 * - blobs a record stops referencing are listed in its `garbage` until their removal is confirmed, and every later
 *   change of the key retries them, so a failed delete never leaves secret data behind for good.
 */

/** Metadata referenced a blob that is gone: another process pruned or destroyed it after the metadata was read. */
class StaleRead extends Error {}

const MAX_STALE_READS = 8;
const MAX_REMOVE_ROUNDS = 16;

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

export interface Committed<R> {
  result: R;
  /** The record as stored afterwards (undefined for a key that does not exist). */
  stored: StoredMetadata | undefined;
  /** Blobs whose removal failed; they stay in the record's garbage. */
  pending: string[];
  warnings: string[];
}

function sameRecord(a: StoredMetadata | undefined, b: StoredMetadata | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class KeyStore {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
  ) {}

  async exists(path: string): Promise<boolean> {
    return (await this.json.getRaw(this.layout.metadata(path))) !== undefined;
  }

  read(path: string): Promise<StoredMetadata | undefined> {
    return this.json.get<StoredMetadata>(this.layout.metadata(path));
  }

  /** Names directly below a folder ('' or ending in '/'): keys, and sub-folders ending in '/'. */
  names(folder: string): Promise<string[]> {
    return this.json.list(this.layout.metadataFolder(folder));
  }

  /** The data of a version its record references (callers run inside `consistent` or `change`). */
  async data(version: StoredVersion): Promise<Record<string, unknown>> {
    const data = version.blob === undefined ? undefined : await this.json.get<Record<string, unknown>>(this.layout.blob(version.blob));
    if (data === undefined) throw new StaleRead();
    return data;
  }

  /** Runs a read again when a blob vanished under it; a record that keeps pointing at a missing blob is a fault. */
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

  /** One read-modify-write of a key's record, under the key's lock, committed atomically when the storage allows. */
  change<R>(path: string, change: (current: StoredMetadata | undefined, stage: Stage) => Promise<Change<R>>): Promise<Committed<R>> {
    const key = this.layout.metadata(path);
    return this.mutex.run(key, () => this.consistent(() => this.commit(key, change)));
  }

  /**
   * Removes a key and all its versions. The record is first committed with every version destroyed, then the blobs go,
   * and only then the record: a failure at any step leaves a readable key that a retried delete finishes.
   */
  remove(path: string): Promise<void> {
    const key = this.layout.metadata(path);
    return this.mutex.run(key, async () => {
      for (let round = 0; round < MAX_REMOVE_ROUNDS; round++) {
        const { stored, pending } = await this.commit(key, async (current) => {
          const destroyed = current && destroy(current, current.versions.map((entry) => entry.version));
          return { next: destroyed ? destroyed.next : unchanged, dropped: destroyed?.dropped, result: undefined };
        });
        if (!stored) return;
        if (pending.length > 0) throw new InternalError('removing the data of the destroyed versions failed; retry the delete');
        // Another process may have changed the key since: then destroy what it added and try again.
        const removal = await this.json.update<StoredMetadata>(key, (current) => (sameRecord(current, stored) ? undefined : unchanged));
        if (removal.written || removal.previous === undefined) return;
      }
      throw new InternalError('the key kept changing while it was being deleted');
    });
  }

  private async commit<R>(key: string, change: (current: StoredMetadata | undefined, stage: Stage) => Promise<Change<R>>): Promise<Committed<R>> {
    const staged: string[] = [];
    const stage: Stage = async (data) => {
      const id = newBlobId();
      staged.push(id);
      await this.json.put(this.layout.blob(id), data);
      return id;
    };
    let outcome!: Change<R>;
    let leftover: string[] = [];
    // Blobs of attempts that lost the race whose removal failed: retried on each attempt, then kept as garbage.
    let lost: string[] = [];
    let update: UpdateResult<StoredMetadata>;
    try {
      update = await this.json.update<StoredMetadata>(key, async (current) => {
        // Only a previous attempt that lost the race to another writer leaves staged blobs: nothing references them.
        lost = await this.removeBlobs([...lost, ...staged.splice(0)]);
        leftover = [...lost, ...(await this.removeBlobs(current?.garbage ?? []))];
        outcome = await change(current, stage);
        const garbage = [...leftover, ...(outcome.dropped ?? [])];
        if (outcome.next !== unchanged) return { ...outcome.next, garbage };
        return current && (lost.length > 0 || garbage.length < current.garbage.length) ? { ...current, garbage } : unchanged;
      });
    } catch (error) {
      await this.discardUnreferenced(key, [...lost, ...staged]);
      throw error;
    }
    const pending = [...leftover, ...(await this.removeBlobs(outcome.dropped ?? []))];
    return { result: outcome.result, stored: update.next, pending, warnings: pending.length > 0 ? [CLEANUP_WARNING] : [] };
  }

  /** Removes blobs and answers the ids whose removal failed. */
  private async removeBlobs(ids: readonly string[]): Promise<string[]> {
    const results = await Promise.allSettled(ids.map((id) => this.json.delete(this.layout.blob(id))));
    return ids.filter((_, index) => results[index]?.status === 'rejected');
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
