import { sameBytes } from '../../lib/bytes.js';
import { InternalError } from '../../lib/errors.js';
import { encodeJson, type JsonStore, unchanged, type UpdateResult } from '../../core/store/stored-json.js';
import { ConfirmedCleanups } from './confirmed-cleanups.js';
import { leavingHead, type EntryDocuments } from './entry-documents.js';
import type { Change, ChangeFunction, Committed, CommitOptions, Stage } from './key-change.js';
import { readDocument } from '../documents/document-format.js';
import { headFormat, type StoredMetadata, type StoredVersion } from '../documents/head-document.js';
import { timedBlobId, type StorageLayout } from '../documents/storage-layout.js';
import { destroy, keptRange, pruned, range } from '../rules/versions.js';

/**
 * Changes of keys over a storage without atomic commits, ordered so that the head record's commit comes last: the new
 * version's blob, then the documents of the entries that leave the head, then the head. Across processes the head is
 * committed through compareAndPut (JsonStore.update) and the change is re-run on conflict, removing the blobs of the
 * lost attempt. Blobs a record stops referencing are listed in its `garbage`, and pruned entry documents in its
 * `retired`, until their removal is confirmed; every later change of the key retries them, so a failed delete never
 * leaves secret data behind for good.
 */

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
const NEEDS_ATOMIC_COMMITS =
  'this key keeps its versions in data documents, which only a storage with atomic commits can change';

const CLEANUP_WARNING =
  'error occurred when cleaning up old versions, these will be cleaned up on the next change to this key';

function sameRecord(a: StoredMetadata | undefined, b: StoredMetadata | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class OrderedChanges {
  private readonly cleanups = new ConfirmedCleanups();

  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
    private readonly entries: EntryDocuments,
    private readonly now: () => number,
    private readonly inlineEntries: number,
  ) {}

  /** One read-modify-write of a key's record (callers hold the key's lock). */
  async change<R>(path: string, change: ChangeFunction<R>, options: CommitOptions): Promise<Committed<R>> {
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
    // The head as this change read it (the storage's JsonStore hands over the decoded JSON as it is).
    let current: StoredMetadata | undefined;
    try {
      update = await this.json.update<StoredMetadata>(key, async (stored: unknown) => {
        current = stored === undefined ? undefined : headFormat.read(stored, key);
        if (current?.documents_from !== undefined && options.inlineAll !== true)
          throw new InternalError(NEEDS_ATOMIC_COMMITS);
        started = this.now();
        // Only a previous attempt that lost the race to another writer leaves staged blobs: nothing references them.
        lost = await this.removeBlobs([...lost, ...staged.splice(0)]);
        const confirmed = current !== undefined && this.cleanups.isConfirmed(key, current.garbage, current.retired);
        leftover = [...lost, ...(confirmed ? [] : await this.removeBlobs(current?.garbage ?? []))];
        unretiredBefore = confirmed ? [] : await this.entries.retire(folder, current?.retired ?? []);
        const view =
          current && options.load
            ? await this.entries.withEntries(folder, current, options.load(current), options.inlineAll)
            : current;
        outcome = await change(view, stage);
        if (outcome.next === unchanged) {
          retired = [];
          dropped = [...(outcome.dropped ?? [])];
          const garbage = [...leftover, ...dropped];
          if (!current) return unchanged;
          const tidier =
            lost.length > 0 ||
            garbage.length < current.garbage.length ||
            unretiredBefore.length < current.retired.length;
          return tidier
            ? headFormat.write({ ...current, garbage, retired: unretiredBefore, revision: current.revision + 1 })
            : unchanged;
        }
        retired = pruned(current, outcome.next);
        const [prunedBlobs, { versions, spilled }] = await Promise.all([
          this.entries.spilledBlobs(folder, view, retired),
          this.spill(key, folder, current, view, outcome.next, options.inlineAll === true),
        ]);
        dropped = [...(outcome.dropped ?? []), ...prunedBlobs];
        const garbage = [...leftover, ...dropped];
        const revision = (current?.revision ?? 0) + 1;
        if (this.now() - started > WRITER_DEADLINE_MS)
          throw new InternalError('the change took too long to commit; retry it');
        return headFormat.write({
          ...outcome.next,
          versions,
          spilled: Math.max(current?.spilled ?? 0, spilled),
          garbage,
          retired: [...unretiredBefore, ...retired],
          revision,
        });
      });
    } catch (error) {
      await this.discardUnreferenced(key, [...lost, ...staged]);
      throw error;
    }
    const [failed, unretired] = await Promise.all([this.removeBlobs(dropped), this.entries.retire(folder, retired)]);
    const pending = [...leftover, ...failed];
    const stored = update.written ? update.next : current;
    const clean = pending.length === 0 && unretiredBefore.length === 0 && unretired.length === 0;
    if (stored && update.written) this.cleanups.confirm(key, clean ? stored.garbage : [], clean ? stored.retired : []);
    const warnings = pending.length > 0 || unretired.length > 0 ? [CLEANUP_WARNING] : [];
    return { result: outcome.result, stored, pending, warnings };
  }

  /**
   * Removes a key and all its versions (callers hold the key's lock): the record is first committed with every version
   * inline and destroyed, then the blobs and entry documents go, and only then the record (only if unchanged,
   * atomically where the storage can): a failure at any step leaves a readable key that a retried delete finishes.
   */
  async remove(path: string): Promise<void> {
    const key = this.layout.metadata(path);
    const options: CommitOptions = {
      load: (current) => range(keptRange(current).from, current.current_version),
      inlineAll: true,
    };
    for (let round = 0; round < MAX_REMOVE_ROUNDS; round++) {
      const { stored, pending } = await this.change(
        path,
        async (current) => {
          // Committed even when nothing changed, so that every entry is inline before the documents go.
          const destroyed =
            current &&
            destroy(
              current,
              current.versions.map((entry) => entry.version),
            );
          return { next: destroyed?.next ?? current ?? unchanged, dropped: destroyed?.dropped, result: undefined };
        },
        options,
      );
      if (!stored) return;
      if (pending.length > 0)
        throw new InternalError('removing the data of the destroyed versions failed; retry the delete');
      await this.entries.removeThrough(this.layout.entries(path), stored.current_version);
      // Another process may have changed the key since: then destroy what it added and try again.
      const raw = await this.json.getRaw(key);
      if (raw === undefined || (sameBytes(raw, encodeJson(stored)) && (await this.json.deleteIfUnchanged(key, raw)))) {
        return this.cleanups.confirm(key, [], []);
      }
    }
    throw new InternalError('the key kept changing while it was being deleted');
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
    const { keep, out } = leavingHead(current, view, next, inlineAll, this.inlineEntries);
    const headUnchanged = async () => sameRecord(await readDocument(this.json, headFormat, key), current);
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
      const record = await readDocument(this.json, headFormat, key);
      const referenced = new Set(record?.versions.map((entry) => entry.blob));
      await this.removeBlobs(staged.filter((id) => !referenced.has(id)));
    } catch {
      // See above: an orphan blob is unreachable, not inconsistent.
    }
  }
}
