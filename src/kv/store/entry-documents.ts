import { InternalError } from '../../lib/errors.js';
import { decodeJson, type JsonStore } from '../../core/store/stored-json.js';
import { entryData, entryFormat, type StoredEntry } from '../documents/entry-document.js';
import { readDocument } from '../documents/document-format.js';
import type { StoredMetadata, StoredVersion } from '../documents/head-document.js';
import { entryKey, newBlobId } from '../documents/storage-layout.js';
import { dataInDocument, keptRange } from '../rules/versions.js';

/**
 * The entry documents of versions that are no longer inline in their key's head record. Rules that keep them exact
 * across processes:
 * - a document is written only by a spill, and a spill only writes an entry that is inline (authoritative) in the head
 *   record the change read; the head then commits without it. While a version is inline, its document (if any) is a
 *   leftover that nothing reads;
 * - every write of a document has a fresh `write` id and goes through compareAndPut: first against "absent", else
 *   against the bytes just read, and only after checking that the head record is still the one the change read. So a
 *   slow writer holding an old head can never overwrite a document that a newer head made authoritative: any write in
 *   between changes the bytes, and any commit in between changes the head;
 * - documents of pruned versions are removed after the commit that pruned them (tracked in the head's `retired`,
 *   their blobs in its `garbage`).
 */

/** A read found a document gone that the head record it read relied on: another process changed the key since. */
export class StaleRead extends Error {}

const MAX_SPILL_ATTEMPTS = 64;

/** Write ids: a random prefix per process and a counter, unique across processes without a random draw per write. */
const WRITER = newBlobId();
let writes = 0;

/** The version's entry a document holds: without what only the document has (its format among them). */
function entryOf(document: StoredEntry): StoredVersion {
  const {
    write: _write,
    written: _written,
    data: _data,
    format: _format,
    ...entry
  } = document as StoredEntry & {
    format?: number;
  };
  return entry;
}

/** A new document of an entry, with a fresh write id and its writing time. */
export function entryDocument(entry: StoredVersion, time: number): StoredEntry {
  return entryFormat.write({ ...entry, write: `${WRITER}.${(writes += 1)}`, written: time });
}

/**
 * Which entries of the next record stay inline: the newest, those this change altered (or loaded, with `inlineAll`),
 * and, while the next record keeps at most `limit` versions, the newest of the other entries the current record holds
 * inline, up to `limit` in all (so a key keeping few versions has no entry documents). A key keeping more than `limit`
 * versions keeps only the newest and the altered ones inline: its head stays the size of a one-version key's. The others the current
 * record holds inline leave the head (`out`): their documents must be written before the head commits, except those of
 * versions that keep their data in their document, which holds their entry from the start (and every change of it).
 */
export function leavingHead(
  current: StoredMetadata | undefined,
  view: StoredMetadata | undefined,
  next: StoredMetadata,
  inlineAll: boolean,
  limit: number,
): { keep: StoredVersion[]; out: StoredVersion[] } {
  const { from, to } = keptRange(next);
  const fits = to - from + 1 <= limit;
  // Every entry stays inline when all must, or when the record fits and the change loaded none besides the inline ones.
  if (inlineAll || (fits && view === current)) return { keep: ascending(next.versions), out: [] };
  const before = new Map(view?.versions.map((entry) => [entry.version, entry]));
  const wasInline = new Set(current?.versions.map((entry) => entry.version));
  const keep: StoredVersion[] = [];
  const out: StoredVersion[] = [];
  for (const entry of next.versions) {
    if (entry.version === next.current_version || before.get(entry.version) !== entry) keep.push(entry);
    else if (wasInline.has(entry.version)) out.push(entry);
  }
  const room = fits ? Math.max(0, limit - keep.length) : 0;
  if (room > 0) keep.push(...out.splice(Math.max(0, out.length - room)));
  return { keep: ascending(keep), out: out.filter((entry) => !dataInDocument(next, entry.version)) };
}

function ascending(entries: readonly StoredVersion[]): StoredVersion[] {
  return [...entries].sort((a, b) => a.version - b.version);
}

/** Every method takes the key's entry folder (StorageLayout.entries), worked out once per operation. */
export class EntryDocuments {
  constructor(private readonly json: JsonStore) {}

  /** The entry of a version whose document is authoritative; a missing document means the head read is stale. */
  async read(folder: string, version: number): Promise<StoredVersion> {
    const stored = await readDocument(this.json, entryFormat, entryKey(folder, version));
    if (stored === undefined) throw new StaleRead();
    return entryOf(stored);
  }

  /**
   * The data of a version that keeps it in its document; undefined when the document or its data is gone. Only the
   * data is checked, as the read of a blob checks it: this read answers nothing else (the entry it uses is the head's
   * or comes from `read`, which checks the whole document).
   */
  async data(folder: string, version: number): Promise<Record<string, unknown> | undefined> {
    const key = entryKey(folder, version);
    const bytes = await this.json.getRaw(key);
    return bytes === undefined ? undefined : entryData(decodeJson<unknown>(bytes, key), key);
  }

  /** Like `read`, but a missing document counts as destroyed: for a key being deleted, which removes the documents. */
  async readForRemoval(folder: string, version: number): Promise<StoredVersion> {
    const stored = await readDocument(this.json, entryFormat, entryKey(folder, version));
    return stored === undefined ? { version, created: 0, destroyed: true } : entryOf(stored);
  }

  /**
   * Writes an inline entry to its document before the head commits without it. Returns without writing when the head
   * changed meanwhile: the head's compareAndPut then fails and the change runs again on the fresh head.
   */
  async spill(
    folder: string,
    entry: StoredVersion,
    time: number,
    headUnchanged: () => Promise<boolean>,
  ): Promise<void> {
    const key = entryKey(folder, entry.version);
    const document = entryDocument(entry, time);
    for (let attempt = 0; attempt < MAX_SPILL_ATTEMPTS; attempt++) {
      if (await this.json.putIfUnchanged(key, undefined, document)) return;
      const found = await this.json.getRaw(key);
      if (found === undefined) continue;
      if (!(await headUnchanged())) return;
      if (await this.json.putIfUnchanged(key, found, document)) return;
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
  }

  /** The record with the entries of the listed kept versions added from their documents. */
  async withEntries(
    folder: string,
    key: StoredMetadata,
    numbers: readonly number[],
    forRemoval = false,
  ): Promise<StoredMetadata> {
    const inline = new Set(key.versions.map((entry) => entry.version));
    const { from, to } = keptRange(key);
    const wanted = [...new Set(numbers)].filter((version) => version >= from && version <= to && !inline.has(version));
    if (wanted.length === 0) return key;
    const loaded = await Promise.all(
      wanted.map((version) => (forRemoval ? this.readForRemoval(folder, version) : this.read(folder, version))),
    );
    return { ...key, versions: [...key.versions, ...loaded].sort((a, b) => a.version - b.version) };
  }

  /**
   * The blobs of the listed versions that are not inline in `view`: pruned, they go with their entry documents. Versions
   * that keep their data in their document have no blob, so their documents are not read.
   */
  async spilledBlobs(folder: string, view: StoredMetadata | undefined, versions: readonly number[]): Promise<string[]> {
    if (versions.length === 0) return [];
    const inline = new Set(view?.versions.map((entry) => entry.version));
    const wanted = versions.filter((version) => !inline.has(version) && !dataInDocument(view, version));
    if (wanted.length === 0) return [];
    const entries = await Promise.all(wanted.map((version) => this.readForRemoval(folder, version)));
    return entries.flatMap((entry) => (entry.blob === undefined ? [] : [entry.blob]));
  }

  /** The versions of the documents in a key's entry folder (its sub-folders belong to longer key paths). */
  async stored(folder: string): Promise<number[]> {
    const names = await this.json.list(folder);
    return names.map(Number).filter((version) => Number.isSafeInteger(version) && version > 0);
  }

  /** Removes the documents of pruned versions (their blobs go as garbage); answers the versions whose removal failed. */
  retire(folder: string, versions: readonly number[]): Promise<number[]> {
    return this.json.deleteEach(versions, (version) => entryKey(folder, version));
  }

  /** Removes the documents of versions up to `through` (newer ones belong to writes that raced a key's deletion). */
  async removeThrough(folder: string, through: number): Promise<void> {
    const doomed = (await this.stored(folder)).filter((version) => version <= through);
    await Promise.all(doomed.map((version) => this.json.delete(entryKey(folder, version))));
  }
}
