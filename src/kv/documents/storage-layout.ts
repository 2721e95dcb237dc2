import { randomFillSync } from 'node:crypto';
import { checkStoragePrefix } from '../../core/framework/path.js';

/**
 * Where the engine keeps its documents, all below one prefix so that one Storage can hold several engines. This is the
 * one place that names their keys; each document's shape and format is defined beside it:
 *
 *   <prefix>config                   the engine configuration (config-document.ts)
 *   <prefix>metadata/<key path>      one head record per key (head-document.ts); folders mirror the key path, so LIST
 *                                    is a storage list of one folder
 *   <prefix>entries/<key path>/<n>   the entry document (entry-document.ts) of version n of a key, once it is no
 *                                    longer inline in the key's head; a key's documents are the leaves of that folder
 *                                    (the folders below it belong to longer key paths)
 *   <prefix>versions/<xx>/<id>       one blob per version (version-blob.ts): the secret data as JSON, under a random id
 *                                    that only the metadata references, so concurrent writers (even in other
 *                                    processes) never collide; the id ends in the time it was written, which the
 *                                    orphan reclaim reads
 *   <prefix>unversioned/<key path>   one document per key of a KV version 1 engine (unversioned-document.ts): its
 *                                    data, unversioned; folders mirror the key path as the heads' do, and upgrading
 *                                    the engine to version 2 moves each into the records above
 */
export class StorageLayout {
  constructor(readonly prefix: string) {
    checkStoragePrefix(prefix);
  }

  get config(): string {
    return `${this.prefix}config`;
  }

  /** The record of the key `path` (a validated key path). */
  metadata(path: string): string {
    return `${this.prefix}metadata/${path}`;
  }

  /** The storage folder listing the keys below `folder` ('' or ending in '/'). */
  metadataFolder(folder: string): string {
    return `${this.prefix}metadata/${folder}`;
  }

  /** The document of the KV version 1 key `path` (a validated key path). */
  unversioned(path: string): string {
    return `${this.prefix}unversioned/${path}`;
  }

  /** The storage folder listing the KV version 1 keys below `folder` ('' or ending in '/'). */
  unversionedFolder(folder: string): string {
    return `${this.prefix}unversioned/${folder}`;
  }

  /** The folder of the entry documents of the key `path`. */
  entries(path: string): string {
    return `${this.prefix}entries/${path}/`;
  }

  /** The folder below which every key's entry folder lies. */
  get entriesRoot(): string {
    return `${this.prefix}entries/`;
  }

  /** The folder below which every blob lies (in its fan-out folder). */
  get blobsRoot(): string {
    return `${this.prefix}versions/`;
  }

  /** Two hex characters of fan-out keep folder sizes small for storages backed by directories. */
  blob(id: string): string {
    return `${this.prefix}versions/${id.slice(0, 2)}/${id}`;
  }
}

/** The entry document of `version` in a key's entry folder (`entries`, worked out once per operation). */
export function entryKey(folder: string, version: number): string {
  return `${folder}${version}`;
}

const ID_BYTES = 16;
/** Random bytes drawn for many ids at once: one draw per 256 ids rather than a UUID formatted and unformatted per id. */
const pool = Buffer.alloc(ID_BYTES * 256);
let taken = pool.length;

/** 128 random bits as 32 hex digits. */
export function newBlobId(): string {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const id = pool.toString('hex', taken, taken + ID_BYTES);
  taken += ID_BYTES;
  return id;
}

/** A blob id that carries its writing time (epoch ms, base 36, after a '-'), so a reclaim can tell fresh from old. */
export function timedBlobId(time: number): string {
  return `${newBlobId()}-${time.toString(36)}`;
}

/** The writing time of a timed blob id; undefined for ids written before blob ids carried one. */
export function blobTime(id: string): number | undefined {
  const dash = id.lastIndexOf('-');
  if (dash < 0) return undefined;
  const time = Number.parseInt(id.slice(dash + 1), 36);
  return Number.isSafeInteger(time) ? time : undefined;
}
