import { InternalError } from '../../lib/errors.js';
import { encodeJson, type JsonStore, unchanged } from '../../core/store/stored-json.js';
import type { StorageOperation } from '../../ports/storage.js';
import { alteredDataDocuments, placeData, rewriteAltered, type Staged } from './data-documents.js';
import { entryDocument, leavingHead, type EntryDocuments } from './entry-documents.js';
import { encodeHead, laidOut } from './head-records.js';
import type { ChangeFunction, Committed, CommitOptions, Stage } from './key-change.js';
import type { DecodedHeads } from './decoded-heads.js';
import { headFormat, type StoredMetadata } from '../documents/head-document.js';
import { entryKey, timedBlobId, type StorageLayout } from '../documents/storage-layout.js';
import { dataInDocument, keptRange, pruned, range } from '../rules/versions.js';

/**
 * Changes of keys over a storage with atomic commits. Everything one change writes and removes is one commit,
 * conditioned on the head record as the change read it: the new version's blob, the entries that leave the head, the
 * head itself, and the removal of all it stops referencing (pruned and destroyed blobs, pruned entry documents, and any
 * cleanup a change without atomic commits left listed in the head). A crash or a storage failure at any point
 * therefore leaves the key as it was or as the change left it: nothing is written ahead of the commit, so no orphan
 * can exist, and no removal is left for a later change. A change that finds the head changed runs again on the new one.
 */

const MAX_ATTEMPTS = 64;

function deletion(key: string): StorageOperation {
  return { type: 'delete', key };
}

export class AtomicChanges {
  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
    private readonly entries: EntryDocuments,
    private readonly heads: DecodedHeads,
    private readonly now: () => number,
    private readonly inlineEntries: number,
  ) {}

  async change<R>(path: string, change: ChangeFunction<R>, options: CommitOptions): Promise<Committed<R>> {
    const key = this.layout.metadata(path);
    const folder = this.layout.entries(path);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const raw = await this.json.getRaw(key);
      const current = raw === undefined ? undefined : this.heads.decode(key, raw);
      const view =
        current && options.load
          ? await this.entries.withEntries(folder, current, options.load(current), options.inlineAll)
          : current;
      const time = this.now();
      const staged: Staged = new Map();
      const stage: Stage = async (data) => {
        const id = timedBlobId(time);
        staged.set(id, data);
        return id;
      };
      const outcome = await change(view, stage);
      const removals = [
        ...(current?.garbage ?? []).map((id) => this.layout.blob(id)),
        ...(current?.retired ?? []).map((version) => entryKey(folder, version)),
      ];
      removals.push(...(outcome.dropped ?? []).map((id) => this.layout.blob(id)));
      let next: StoredMetadata;
      let writes: StorageOperation[] = [];
      if (outcome.next === unchanged) {
        if (!current || removals.length === 0)
          return { result: outcome.result, stored: current, pending: [], warnings: [] };
        next = laidOut({ ...current, garbage: [], retired: [], revision: current.revision + 1 });
      } else {
        const placed = placeData(this.layout, folder, current, outcome.next, staged, time, this.inlineEntries);
        const retired = pruned(current, placed.next);
        // Each step that reads is skipped when it has nothing to read (as for every write of a key with data documents).
        const withBlobs = retired.filter((version) => !dataInDocument(view, version));
        const prunedBlobs = withBlobs.length === 0 ? [] : await this.entries.spilledBlobs(folder, view, withBlobs);
        const altered = alteredDataDocuments(current, view, placed.next);
        const rewritten = altered.length === 0 ? [] : await rewriteAltered(this.json, folder, altered, time);
        const { keep, out } = leavingHead(current, view, placed.next, options.inlineAll === true, this.inlineEntries);
        writes = [...placed.writes, ...rewritten];
        for (const entry of out)
          writes.push({
            type: 'put',
            key: entryKey(folder, entry.version),
            value: encodeJson(entryDocument(entry, time)),
          });
        removals.push(
          ...retired.map((version) => entryKey(folder, version)),
          ...prunedBlobs.map((id) => this.layout.blob(id)),
        );
        const spilled = Math.max(current?.spilled ?? 0, out.at(-1)?.version ?? 0, placed.documented);
        next = laidOut({
          ...placed.next,
          versions: keep,
          spilled,
          garbage: [],
          retired: [],
          revision: (current?.revision ?? 0) + 1,
        });
      }
      const { bytes: head, texts } = encodeHead(next, this.heads.encoded(key, current));
      const operations = [
        ...writes,
        { type: 'put' as const, key, value: head, expected: raw ?? null },
        ...[...new Set(removals)].map(deletion),
      ];
      if (await this.apply(operations, key, head)) {
        this.heads.remember(key, head, next, texts);
        return { result: outcome.result, stored: next, pending: [], warnings: [] };
      }
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
  }

  /**
   * Removes a key in one commit conditioned on its head: the head, every entry document in its folder and every blob
   * any of them references. A write committed by another process after the head was read makes the commit fail, and
   * the removal runs again on the new head, so no write's data is ever left behind unreferenced.
   */
  async remove(path: string): Promise<void> {
    const key = this.layout.metadata(path);
    const folder = this.layout.entries(path);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const raw = await this.json.getRaw(key);
      if (raw === undefined) return;
      const operations = [
        { type: 'delete' as const, key, expected: raw },
        ...(await this.contents(key, folder, raw)).map(deletion),
      ];
      if (await this.apply(operations, key, undefined)) return;
    }
    throw new InternalError('the key kept changing while it was being deleted');
  }

  /** The storage keys of a key's entry documents and of every blob its head, documents and garbage name. */
  async contents(key: string, folder: string, raw: Uint8Array): Promise<string[]> {
    const current = headFormat.decode(raw, key);
    const [all, documents] = await Promise.all([
      this.entries.withEntries(folder, current, range(keptRange(current).from, current.current_version), true),
      this.entries.stored(folder),
    ]);
    const blobs = [
      ...all.versions.flatMap((entry) => (entry.blob === undefined ? [] : [entry.blob])),
      ...current.garbage,
    ];
    return [
      ...documents.map((version) => entryKey(folder, version)),
      ...new Set(blobs.map((id) => this.layout.blob(id))),
    ];
  }

  /**
   * Applies one commit; a failure whose answer was lost after the commit took effect counts as done, which the head
   * shows (its bytes are unique: every commit raises its revision).
   */
  async apply(operations: readonly StorageOperation[], key: string, head: Uint8Array | undefined): Promise<boolean> {
    try {
      return await this.json.commit(operations);
    } catch (error) {
      if (await this.json.holds(key, head)) return true;
      throw error;
    }
  }
}
