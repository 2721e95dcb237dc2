import { InvalidRequest } from '../../lib/errors.js';
import type { JsonStore } from '../../core/store/stored-json.js';
import { WRITER_DEADLINE_MS } from '../store/ordered-changes.js';
import { readDocument } from '../documents/document-format.js';
import { entryFormat } from '../documents/entry-document.js';
import { headFormat, type StoredMetadata } from '../documents/head-document.js';
import { blobTime, type StorageLayout } from '../documents/storage-layout.js';
import { keptRange } from '../rules/versions.js';

/**
 * Reclaims what a change over a storage without atomic commits can leave behind when its process dies between writing
 * and committing: version blobs no record references, and entry documents of versions their key does not keep (or of
 * keys that no longer exist). Over a storage with atomic commits nothing is written ahead of its commit, so there is
 * nothing to reclaim and the call returns at once.
 *
 * Why it never removes what a concurrent writer is about to reference: a writer refuses to commit a change whose
 * blobs and documents it wrote more than WRITER_DEADLINE_MS ago (their time is in the blob id and the document). The
 * reclaim notes the time T at which it starts reading records, and only removes items written before T - grace. Any
 * change that references such an item had to commit before T - grace + WRITER_DEADLINE_MS, that is before T, so the
 * records read from T on show it. The sweep stops early, leaving the rest to the next call, once half of the margin
 * (grace - deadline) has elapsed, so slow calls keep the argument; the other half absorbs clock skew between processes.
 * Items written by versions of the engine that did not record a time are never removed.
 */

const DEFAULT_GRACE_SECONDS = 15 * 60;
const DEFAULT_LIMIT = 1000;

/** How far one `reclaimOrphans` call goes. */
export interface ReclaimOptions {
  /** Only items written at least this long ago; default 900 (15 minutes), at least 120. */
  graceSeconds?: number;
  /** At most this many removals in this call; default 1000. */
  limit?: number;
  /** Resume the blob sweep after this storage key (the `next` of the previous call). */
  after?: string;
}

/** What one `reclaimOrphans` call removed. */
export interface ReclaimResult {
  /** Version blobs removed. */
  blobs: number;
  /** Entry documents removed. */
  entries: number;
  /** False when the call stopped at its limit or time budget: call again with `after: next`. */
  complete: boolean;
  next?: string;
}

/** The reclaim of one engine's documents (see the comment above). */
export class OrphanReclaim {
  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
    private readonly now: () => number,
  ) {}

  async run(options: ReclaimOptions = {}): Promise<ReclaimResult> {
    const grace = (options.graceSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new InvalidRequest('limit must be a positive integer');
    if (!Number.isFinite(grace) || grace < 2 * WRITER_DEADLINE_MS)
      throw new InvalidRequest(`graceSeconds must be at least ${(2 * WRITER_DEADLINE_MS) / 1000}`);
    if (this.json.canCommit) return { blobs: 0, entries: 0, complete: true };
    const started = this.now();
    const cutoff = started - grace;
    const budgetEnds = started + (grace - WRITER_DEADLINE_MS) / 2;
    const result: ReclaimResult = { blobs: 0, entries: 0, complete: false };
    const stop = () => result.blobs + result.entries >= limit || this.now() > budgetEnds;

    const heads = new Map<string, StoredMetadata>();
    const referenced = new Set<string>();
    const metadata = this.layout.metadataFolder('');
    for await (const path of this.json.keysBelow(metadata)) {
      const head = await readDocument(this.json, headFormat, metadata + path);
      if (!head) continue;
      heads.set(path, head);
      for (const entry of head.versions) if (entry.blob) referenced.add(entry.blob);
    }
    const entries = this.layout.entriesRoot;
    for await (const name of this.json.keysBelow(entries)) {
      const slash = name.lastIndexOf('/');
      const path = name.slice(0, slash);
      const version = Number(name.slice(slash + 1));
      const document = await readDocument(this.json, entryFormat, entries + name);
      if (!document) continue;
      const head = heads.get(path);
      const kept = head !== undefined && version >= keptRange(head).from && version <= head.current_version;
      if (kept) {
        if (document.blob && !head.versions.some((entry) => entry.version === version)) referenced.add(document.blob);
      } else if (document.written !== undefined && document.written < cutoff) {
        if (stop()) return result;
        await this.json.delete(entries + name);
        result.entries += 1;
      }
    }
    const versions = this.layout.blobsRoot;
    let after = options.after;
    for await (const name of this.json.keysBelow(versions)) {
      if (after !== undefined && name <= after) continue;
      const id = name.slice(name.lastIndexOf('/') + 1);
      const time = blobTime(id);
      if (!referenced.has(id) && time !== undefined && time < cutoff) {
        if (stop()) return { ...result, ...(after === undefined ? {} : { next: after }) };
        await this.json.delete(versions + name);
        result.blobs += 1;
      }
      after = name;
    }
    return { ...result, complete: true };
  }
}
