import { InternalError, InvalidRequest, NotFound } from '../../lib/errors.js';
import { encodeJson, type JsonStore } from '../../core/store/stored-json.js';
import type { StorageOperation } from '../../ports/storage.js';
import type { AtomicChanges } from './atomic-changes.js';
import { CAS_MISMATCH } from '../rules/cas.js';
import { entryDocument, StaleRead, type EntryDocuments } from './entry-documents.js';
import { headFormat, type StoredChange, type StoredMetadata, type StoredVersion } from '../documents/head-document.js';
import { entryKey, timedBlobId, type StorageLayout } from '../documents/storage-layout.js';
import { dataInDocument, isDeleted, isDestroyed, keptRange, range } from '../rules/versions.js';

/**
 * Moving and copying a key with its whole history, as one commit: the target's head and entry documents are created
 * (the target must not exist), and the source is removed (move) or required unchanged (copy). A copy gets blobs of its
 * own, so every version's data keeps exactly one owner; a move keeps the blobs, which only the moved records name.
 * Only storages with atomic commits can do this all or nothing; others are refused.
 */

const MAX_ATTEMPTS = 64;

export interface TransferOptions {
  /** The source's current version must equal it. */
  cas?: number;
  /** Copy: the source stays. */
  keepSource: boolean;
  /** Soft-deleted versions arrive as they are; otherwise they arrive destroyed, their data not carried. */
  carryDeleted: boolean;
  /** The target's key-level metadata (custom_metadata, settings) from the source's record; by default, the source's. */
  keyMetadata?: (source: StoredMetadata) => StoredMetadata;
}

/** What a transfer committed: the source's record as it was moved or copied, and the target's first change. */
export interface Transferred {
  source: StoredMetadata;
  made: StoredChange;
}

export class KeyTransfer {
  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
    private readonly entries: EntryDocuments,
    private readonly atomic: AtomicChanges,
    private readonly now: () => number,
  ) {}

  async run(from: string, to: string, options: TransferOptions): Promise<Transferred> {
    if (from === to) throw new InvalidRequest('the source and the target are the same key');
    const source = this.layout.metadata(from);
    const target = this.layout.metadata(to);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const [raw, existing] = await Promise.all([this.json.getRaw(source), this.json.getRaw(target)]);
      if (raw === undefined) throw new NotFound(`no key ${JSON.stringify(from)}`);
      if (existing !== undefined) throw new InvalidRequest(`the key ${JSON.stringify(to)} already exists`);
      const head = headFormat.decode(raw, source);
      if (options.cas !== undefined && options.cas !== head.current_version) throw new InvalidRequest(CAS_MISMATCH);
      const made: StoredChange = {
        operation: options.keepSource ? 'copy' : 'move',
        version: head.current_version,
        revision: head.revision + 1,
        time: this.now(),
      };
      const operations = await this.operations(from, to, head, raw, options, made);
      const next = operations.find((operation) => operation.key === target);
      if (await this.atomic.apply(operations, target, next?.type === 'put' ? next.value : undefined))
        return { source: head, made };
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(from)}`);
  }

  private async operations(
    from: string,
    to: string,
    head: StoredMetadata,
    raw: Uint8Array,
    { keepSource, carryDeleted, keyMetadata = (source) => source }: TransferOptions,
    made: StoredChange,
  ): Promise<StorageOperation[]> {
    const source = this.layout.metadata(from);
    const sourceFolder = this.layout.entries(from);
    const targetFolder = this.layout.entries(to);
    const { time } = made;
    const kept = await this.entries.withEntries(sourceFolder, head, range(keptRange(head).from, head.current_version));
    const operations: StorageOperation[] = [];
    // A version withheld (deleted, and the caller may not undelete it; or past its destruction time, whose data no one
    // may have) arrives destroyed; a move removes its data.
    const withheld = new Set<number>();
    const arriving = (entry: StoredVersion): StoredVersion => {
      if (entry.destroyed) return entry;
      const expired = isDestroyed(entry, time);
      if (!expired && (carryDeleted || !isDeleted(entry, time))) return entry;
      withheld.add(entry.version);
      if (!keepSource && entry.blob !== undefined)
        operations.push({ type: 'delete', key: this.layout.blob(entry.blob) });
      const { blob: _blob, ...rest } = entry;
      return { ...rest, destroyed: true };
    };
    const versions = kept.versions.map(arriving);
    const arrived = new Map(versions.map((entry) => [entry.version, entry]));
    const renamed = new Map<string, string>();
    if (keepSource) {
      await Promise.all(
        versions.map(async ({ blob }) => {
          if (blob === undefined) return;
          const data = await this.json.getRaw(this.layout.blob(blob));
          if (data === undefined) throw new StaleRead();
          const id = timedBlobId(time);
          renamed.set(blob, id);
          operations.push({ type: 'put', key: this.layout.blob(id), value: data, expected: null });
        }),
      );
    }
    const rename = (entry: StoredVersion): StoredVersion =>
      entry.blob === undefined || !keepSource ? entry : { ...entry, blob: renamed.get(entry.blob) };
    const inline = new Set(head.versions.map((entry) => entry.version));
    // A version keeping its data in its document has one, inline or not: it goes over as it is, data and all.
    const carried = await Promise.all(
      versions.map(async ({ version }) => {
        if (!dataInDocument(head, version) || withheld.has(version)) return undefined;
        const document = await this.json.getRaw(entryKey(sourceFolder, version));
        if (document === undefined) throw new StaleRead();
        return document;
      }),
    );
    versions.forEach((entry, index) => {
      const key = entryKey(targetFolder, entry.version);
      const document = carried[index];
      if (document) operations.push({ type: 'put', key, value: document });
      // A version keeping its data in its document has one, inline or not: a withheld one's holds no data.
      else if (!inline.has(entry.version) || dataInDocument(head, entry.version)) {
        operations.push({ type: 'put', key, value: encodeJson(entryDocument(rename(entry), time)) });
      }
    });
    // The target's history starts with its arrival: the source's earlier changes are events of another path.
    const next: StoredMetadata = {
      ...keyMetadata(head),
      versions: head.versions.map((entry) => rename(arrived.get(entry.version)!)),
      garbage: keepSource ? [] : head.garbage,
      retired: [],
      revision: made.revision,
      changes: [made],
    };
    operations.push({
      type: 'put',
      key: this.layout.metadata(to),
      value: encodeJson(headFormat.write(next)),
      expected: null,
    });
    if (keepSource) {
      // Rewriting the same bytes conditions the commit on the source being the one whose history was read.
      operations.push({ type: 'put', key: source, value: raw, expected: raw });
    } else {
      const documents = await this.entries.stored(sourceFolder);
      operations.push(
        { type: 'delete', key: source, expected: raw },
        ...documents.map((version): StorageOperation => ({ type: 'delete', key: entryKey(sourceFolder, version) })),
      );
    }
    return operations;
  }
}
