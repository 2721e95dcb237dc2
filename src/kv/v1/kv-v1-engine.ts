import { Dispatcher } from '../../core/framework/router.js';
import type { EngineRequest, EngineResponse } from '../../core/framework/request.js';
import { parseInput } from '../../core/framework/parse-input.js';
import { JsonStore } from '../../core/store/stored-json.js';
import { systemClock } from '../../lib/clocks.js';
import { NotFound } from '../../lib/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Storage } from '../../ports/storage.js';
import { StorageLayout } from '../documents/storage-layout.js';
import { KeyPages } from '../store/key-pages.js';
import { folderPath, keyPath } from '../values/key-paths.js';
import { valueLimits, type ValueLimits } from '../values/value-limits.js';
import { DEFAULT_LEASE_SECONDS } from './lease.js';
import { UnversionedKeys } from './unversioned-keys.js';
import { checkedData, listPage, pageFields, v1Routes, writeInput } from './v1-routes.js';

/** How a KvV1Engine is built: only `storage` is required. */
export interface KvV1EngineOptions {
  /** Where the engine keeps its keys. */
  storage: Storage;
  /** Defaults to the system clock; it stamps each write, which an upgrade to version 2 keeps as created_time. */
  clock?: Clock;
  /**
   * Where the engine keeps its records in `storage`, so that one Storage can hold several engines. Default 'kv/'. A
   * KvEngine given the same prefix serves these keys once `upgradeKvV1ToV2` has moved them.
   */
  storagePrefix?: string;
  /** Largest data a key may hold, in bytes of serialised JSON (default 1 MiB); a larger write is a 400. */
  maxValueBytes?: number;
  /** Seconds a read answers as `lease_duration` when the data has no `ttl`; default 2764800 (768h, Vault's). */
  defaultLeaseTtl?: number;
  /** Every server-side fault answered as 500, for the service's logs (with the request without its body). */
  onInternalError?: (error: unknown, request: EngineRequest) => void;
}

/** A page of a KV version 1 listing, in byte order of the names. */
export interface KvV1ListOptions {
  /** Start after this name (the last one of the previous page). */
  after?: string;
  /** At most this many names; 0, negative or absent: all of them. */
  limit?: number;
}

function checkOptions(options: KvV1EngineOptions): ValueLimits {
  if (!options || typeof options.storage !== 'object' || options.storage === null)
    throw new TypeError('KvV1Engine needs a storage');
  const lease = options.defaultLeaseTtl;
  if (lease !== undefined && !(Number.isSafeInteger(lease) && lease >= 0))
    throw new TypeError('defaultLeaseTtl must be a whole number of seconds, 0 or more');
  return valueLimits(options.maxValueBytes);
}

/**
 * The unversioned key-value secrets engine (KV version 1, what `vault secrets enable kv` makes). `handle()` serves
 * Vault's wire API of docs/kv.md: any JSON object written whole to any path, read back as written, listed by folder,
 * deleted for good. The typed methods do the same for programmatic callers and reject with strongroom's typed errors
 * (InvalidRequest, NotFound, InternalError).
 */
export class KvV1Engine {
  private readonly dispatcher: Dispatcher;
  private readonly keys: UnversionedKeys;
  private readonly pages: KeyPages;
  private readonly limits: ValueLimits;

  constructor(options: KvV1EngineOptions) {
    this.limits = checkOptions(options);
    const layout = new StorageLayout(options.storagePrefix ?? 'kv/');
    this.keys = new UnversionedKeys(new JsonStore(options.storage), layout, options.clock ?? systemClock);
    this.pages = new KeyPages(options.storage, (folder) => layout.unversionedFolder(folder));
    const routes = v1Routes({
      keys: this.keys,
      pages: this.pages,
      limits: this.limits,
      defaultLease: options.defaultLeaseTtl ?? DEFAULT_LEASE_SECONDS,
    });
    this.dispatcher = new Dispatcher(routes, { onInternalError: options.onInternalError });
  }

  /**
   * Serves one request of the wire API (docs/kv.md): the path relative to the mount, Vault's methods. Never rejects: a
   * refusal or a fault is an answer (4xx, or 500 reported to `onInternalError`).
   */
  handle(request: EngineRequest): Promise<EngineResponse> {
    return this.dispatcher.handle(request);
  }

  /** The data stored at `path`, as written; NotFound when there is none. */
  async read(path: string): Promise<Record<string, unknown>> {
    const found = await this.keys.read(keyPath(path));
    if (!found) throw new NotFound(`no key ${JSON.stringify(path)}`);
    return found.data;
  }

  /** Stores `data` (a non-empty JSON object) at `path`, replacing what was there. */
  async write(path: string, data: Record<string, unknown>): Promise<void> {
    await this.keys.write(keyPath(path), checkedData(parseInput(writeInput, { data }).data, this.limits));
  }

  /** Removes the key for good; a missing key is not an error. */
  async delete(path: string): Promise<void> {
    await this.keys.delete(keyPath(path));
  }

  /** The direct children of a folder ('' is the root), sub-folders ending in '/'; an empty folder gives []. */
  async list(folder = '', options: KvV1ListOptions = {}): Promise<string[]> {
    return listPage(this.pages, {}, folderPath(folder), parseInput(pageFields, options));
  }
}
