import { encodeJson, type JsonStore } from '../../core/store/stored-json.js';
import type { StorageOperation } from '../../ports/storage.js';
import { entryDocument, StaleRead } from './entry-documents.js';
import { entryFormat, type StoredEntry } from '../documents/entry-document.js';
import type { StoredMetadata, StoredVersion } from '../documents/head-document.js';
import { entryKey, type StorageLayout } from '../documents/storage-layout.js';
import { dataInDocument, findVersion, keptRange } from '../rules/versions.js';

/**
 * Versions that keep their data in their entry document instead of a blob (StoredMetadata.documents_from), over a
 * storage with atomic commits. A write of a key keeping more versions than its head holds inline then stores one
 * document (entry and data) instead of a blob now and the entry's document one write later, and its pruning removes
 * that one document without first reading it for a blob id: as many storage calls as a write of a one-version key.
 *
 * The document holds the version's current entry from the start: a change of the entry (delete, undelete, destroy)
 * rewrites it in the same commit (without the data once destroyed), so the entry never needs writing when it leaves
 * the head. Everything here is part of the change's one commit, conditioned on the head the change read.
 */

/** Blobs a change staged: the data of each, not yet encoded, until it is known where it goes. */
export type Staged = Map<string, Record<string, unknown>>;

export interface Placed {
  next: StoredMetadata;
  writes: StorageOperation[];
  /** The version whose data went to its entry document (0: none). */
  documented: number;
}

/**
 * Puts the staged data where it belongs: the version this change adds goes to its entry document when the key already
 * keeps its data there or now keeps more than `inlineEntries` versions; any other staged data goes to its blob.
 */
export function placeData(
  layout: StorageLayout,
  folder: string,
  current: StoredMetadata | undefined,
  proposed: StoredMetadata,
  staged: Staged,
  time: number,
  inlineEntries: number,
): Placed {
  const writes: StorageOperation[] = [];
  let next = proposed;
  let documented = 0;
  const newest = proposed.current_version;
  const { from, to } = keptRange(proposed);
  const toDocument =
    newest > (current?.current_version ?? 0) && (dataInDocument(current, newest) || to - from + 1 > inlineEntries);
  const added = toDocument ? findVersion(proposed, newest) : undefined;
  const data = added?.blob === undefined ? undefined : staged.get(added.blob);
  if (added && data) {
    const { blob, ...entry } = added;
    staged.delete(blob!);
    next = {
      ...proposed,
      documents_from: current?.documents_from ?? added.version,
      versions: proposed.versions.map((version) => (version === added ? entry : version)),
    };
    const document: StoredEntry = { ...entryDocument(entry, time), data };
    // Unconditional: a document under a version the head does not keep yet is a leftover nothing reads.
    writes.push({ type: 'put', key: entryKey(folder, entry.version), value: encodeJson(document) });
    documented = entry.version;
  }
  for (const [id, value] of staged)
    writes.push({ type: 'put', key: layout.blob(id), value: encodeJson(value), expected: null });
  return { next, writes, documented };
}

/** The entries this change altered (a delete, undelete or destroy) of versions that keep their data in their document. */
export function alteredDataDocuments(
  current: StoredMetadata | undefined,
  view: StoredMetadata | undefined,
  next: StoredMetadata,
): StoredVersion[] {
  if (current?.documents_from === undefined) return [];
  const before = new Map(view?.versions.map((entry) => [entry.version, entry]));
  return next.versions.filter(
    (entry) =>
      dataInDocument(current, entry.version) && before.has(entry.version) && before.get(entry.version) !== entry,
  );
}

/**
 * Rewrites the documents of altered entries (alteredDataDocuments): the new entry with the data it held (none once
 * destroyed), conditioned on the document's bytes as read here.
 */
export function rewriteAltered(
  json: JsonStore,
  folder: string,
  altered: readonly StoredVersion[],
  time: number,
): Promise<StorageOperation[]> {
  return Promise.all(altered.map((entry) => rewrite(json, entryKey(folder, entry.version), entry, time)));
}

async function rewrite(json: JsonStore, key: string, entry: StoredVersion, time: number): Promise<StorageOperation> {
  const raw = await json.getRaw(key);
  // The head the change read names a document that is gone: another process changed the key since.
  if (raw === undefined) throw new StaleRead();
  const { data } = entryFormat.decode(raw, key);
  const document: StoredEntry = {
    ...entryDocument(entry, time),
    ...(entry.destroyed || data === undefined ? {} : { data }),
  };
  return { type: 'put', key, value: encodeJson(document), expected: raw };
}
