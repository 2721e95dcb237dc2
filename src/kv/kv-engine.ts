import { Dispatcher } from '../core/framework/router.js';
import { InvalidRequest, NotFound } from '../lib/errors.js';
import type { EngineRequest, EngineResponse } from '../core/framework/request.js';
import { JsonStore } from '../core/store/stored-json.js';
import { systemClock } from '../lib/clocks.js';
import { formatTimestamp } from '../lib/time.js';
import { runGuarded } from '../lib/calls.js';
import {
  checkOptions,
  type KvEngineOptions,
  type KvListOptions,
  type KvPatchOptions,
  type KvReadOptions,
  type KvRestoreOptions,
  type KvScanOptions,
  type KvWarnings,
} from './engine-options.js';
import { configView, configWriteFields, type KvConfig, type KvConfigInput } from './rules/config.js';
import { kvContext, type KvContext } from './operations/context.js';
import {
  DataOperations,
  hiddenVersion,
  presentVersion,
  dataPatchFields,
  dataWriteFields,
  readFields,
  subkeysFields,
  versionsFields,
  type KvWriteResult,
} from './operations/data-operations.js';
import type { JsonPatchOperation } from './values/json-patch.js';
import { changesOf, eventOf, type KvChangeEvent, type KvRecordedChanges } from './changes/change-events.js';
import { ChangeFeed, type KvChangeListener } from './changes/change-feed.js';
import { RemoteChanges } from './changes/remote-changes.js';
import { FolderListing, type DetailedListing } from './operations/folder-listing.js';
import { deleteFolder, transferFields } from './operations/key-moves.js';
import { Restore, restoreFields, type RestoreReport } from './operations/restore.js';
import { OrphanReclaim, type ReclaimOptions, type ReclaimResult } from './operations/orphan-reclaim.js';
import { listFields } from './operations/listing.js';
import { sweepLifetimes, type KvSweepResult } from './operations/lifetime-sweep.js';
import { readMany, type KvReadManyRequest, type KvReadManyResult } from './operations/read-many.js';
import {
  metadataPatchFields,
  metadataWriteFields,
  type KvMetadataInput,
  type KvMetadataPatchInput,
} from './rules/metadata.js';
import { MetadataOperations } from './operations/metadata-operations.js';
import { kvRoutes } from './paths.js';
import { StorageLayout } from './documents/storage-layout.js';
import { patchMediaType } from './values/patch-formats.js';
import { folderPath, keyPath } from './values/key-paths.js';
import { parseInput } from '../core/framework/parse-input.js';
import type { KeyMetadata, SecretSubkeys, SecretVersion } from './rules/views.js';

/**
 * The versioned key-value secrets engine (KV version 2 semantics). `handle()` serves the wire API of
 * docs/kv.md; the typed methods run the same operations for programmatic callers and reject with the typed
 * errors of strongroom (InvalidRequest, NotFound, InternalError) where the wire API answers 4xx or 5xx.
 */
export class KvEngine {
  private readonly dispatcher: Dispatcher;
  private readonly data: DataOperations;
  private readonly metadata: MetadataOperations;
  private readonly orphans: OrphanReclaim;
  private readonly restorer: Restore;
  private readonly listing: FolderListing;
  private readonly remote: RemoteChanges;
  private readonly layout: StorageLayout;
  private readonly context: KvContext;
  /** The service's onEventError, run guarded: a throwing hook must not become the rejection it reports. */
  private readonly reportEventError: (error: unknown) => void;

  constructor(options: KvEngineOptions) {
    const limits = checkOptions(options);
    const layout = new StorageLayout(options.storagePrefix ?? 'kv/');
    this.layout = layout;
    this.reportEventError = (error) => runGuarded(() => options.onEventError?.(error));
    const json = new JsonStore(options.storage);
    const clock = options.clock ?? systemClock;
    const context = kvContext(json, layout, clock, limits, new ChangeFeed(this.reportEventError));
    this.context = context;
    this.remote = new RemoteChanges(options.storage, layout, context, this.reportEventError);
    this.orphans = new OrphanReclaim(json, layout, () => clock.now().getTime());
    this.data = new DataOperations(context);
    this.metadata = new MetadataOperations(context);
    this.listing = new FolderListing(context, this.metadata, options.filterListings === true);
    this.restorer = new Restore(context);
    const routes = kvRoutes({
      data: this.data,
      metadata: this.metadata,
      config: context.config,
      keys: context.keys,
      listing: this.listing,
      restore: this.restorer,
      handle: (request) => this.dispatcher.handle(request),
    });
    this.dispatcher = new Dispatcher(routes, { onInternalError: options.onInternalError });
  }

  /**
   * Serves one request of the wire API (docs/kv.md): the path relative to the mount, Vault's methods and fields. Never
   * rejects: a refusal or a fault is an answer (4xx, or 500 reported to `onInternalError`).
   */
  handle(request: EngineRequest): Promise<EngineResponse> {
    return this.dispatcher.handle(request);
  }

  /** The engine-wide settings, as `GET config` answers them. */
  async readConfig(): Promise<KvConfig> {
    return configView(await this.context.config.read());
  }

  /** Changes the engine-wide settings given (`POST config`); those left out keep their values. */
  async writeConfig(input: KvConfigInput): Promise<void> {
    await this.context.config.write(parseInput(configWriteFields, input));
  }

  /** The data of a version (or the one current at `asOf`); NotFound for none, or a deleted (then) or destroyed one. */
  async read(path: string, options: KvReadOptions = {}): Promise<SecretVersion> {
    const { version } = parseInput(readFields, { version: options.version });
    const read = await this.data.read(keyPath(path), version, (data) => data, options.asOf);
    const { value, metadata } = presentVersion(path, read);
    return { data: value, metadata };
  }

  /**
   * Reads up to 100 keys at once (`POST read-many`): for each item in order, the status and `data` (or `errors`) that
   * `GET data/<path>` answers; InvalidRequest names the first malformed item.
   */
  readMany(requests: KvReadManyRequest[]): Promise<KvReadManyResult> {
    return readMany((request) => this.dispatcher.handle(request), requests);
  }

  /**
   * Stores `data` as the key's new version (creating the key), pruning the oldest past max_versions; `cas` must equal the
   * current version (0 for a new key) when given, and is required when the engine or the key sets cas_required.
   */
  async write(path: string, data: Record<string, unknown>, options: { cas?: number } = {}): Promise<KvWriteResult> {
    return this.data.write(keyPath(path), parseInput(dataWriteFields, { data, options }));
  }

  /** NotFound when the key has no current version or it is deleted or destroyed. */
  async patch(
    path: string,
    patch: Record<string, unknown> | JsonPatchOperation[],
    options: KvPatchOptions = {},
  ): Promise<KvWriteResult> {
    const mediaType = patchMediaType(options.format);
    const fields = parseInput(dataPatchFields, { data: patch, options: { cas: options.cas } });
    const outcome = await this.data.patch(keyPath(path), fields, mediaType);
    if (outcome.state === 'written') return { metadata: outcome.metadata, warnings: outcome.warnings };
    if (outcome.state === 'hidden') throw hiddenVersion(path, outcome.metadata);
    throw new NotFound(`${JSON.stringify(path)} has no current version to patch`);
  }

  /**
   * The structure of a version's data without its values (every leaf null), down to `depth` levels (0: all);
   * NotFound as for `read`.
   */
  async subkeys(path: string, options: { version?: number; depth?: number } = {}): Promise<SecretSubkeys> {
    const { version, depth } = parseInput(subkeysFields, options);
    const { value, metadata } = presentVersion(path, await this.data.subkeys(keyPath(path), version, depth));
    return { subkeys: value, metadata };
  }

  /** Soft-deletes the current version. */
  async deleteLatest(path: string): Promise<KvWarnings> {
    return { warnings: await this.data.deleteLatest(keyPath(path)) };
  }

  /** Soft-deletes the listed versions: their data stays until destroyed or pruned, and `undeleteVersions` restores it. */
  async deleteVersions(path: string, versions: number[]): Promise<KvWarnings> {
    return {
      warnings: await this.data.deleteVersions(keyPath(path), parseInput(versionsFields, { versions }).versions),
    };
  }

  /** Restores the listed soft-deleted versions; destroyed ones stay destroyed. */
  async undeleteVersions(path: string, versions: number[]): Promise<KvWarnings> {
    return {
      warnings: await this.data.undeleteVersions(keyPath(path), parseInput(versionsFields, { versions }).versions),
    };
  }

  /** Removes the data of the listed versions for good; their metadata stays, marked destroyed. */
  async destroyVersions(path: string, versions: number[]): Promise<KvWarnings> {
    return {
      warnings: await this.data.destroyVersions(keyPath(path), parseInput(versionsFields, { versions }).versions),
    };
  }

  /** The key's settings, custom_metadata and every kept version's summary; NotFound when the key does not exist. */
  async readMetadata(path: string): Promise<KeyMetadata> {
    const found = await this.metadata.read(keyPath(path));
    if (!found) throw new NotFound(`no key ${JSON.stringify(path)}`);
    return found;
  }

  /**
   * Sets the key's settings and custom_metadata given (creating the key without versions); custom_metadata, when given,
   * replaces the whole map. Lowering max_versions prunes at the next write, not now.
   */
  async writeMetadata(path: string, input: KvMetadataInput): Promise<KvWarnings> {
    return { warnings: await this.metadata.write(keyPath(path), parseInput(metadataWriteFields, input)) };
  }

  /**
   * Changes only the fields given of an existing key's metadata: custom_metadata merges entry by entry (a null value
   * removes one); NotFound when the key does not exist.
   */
  async patchMetadata(path: string, input: KvMetadataPatchInput): Promise<KvWarnings> {
    const outcome = await this.metadata.patch(keyPath(path), parseInput(metadataPatchFields, input));
    if (outcome.state === 'missing') throw new NotFound(`no key ${JSON.stringify(path)}`);
    return { warnings: outcome.warnings };
  }

  /** Removes the key, its metadata and every version; a missing key is not an error. */
  async deleteMetadata(path: string): Promise<void> {
    await this.metadata.remove(keyPath(path));
  }

  /**
   * Moves the key with its whole history and metadata to `to` (which must not exist), all or nothing; `cas` must equal
   * the source's current version when given. Needs a storage with atomic commits (InvalidRequest otherwise).
   */
  async move(from: string, to: string, options: { cas?: number } = {}): Promise<void> {
    await this.metadata.transfer(keyPath(from), parseInput(transferFields, { to, ...options }), false);
  }

  /** Like `move`, but the source stays; the copy's versions get data of their own. */
  async copy(from: string, to: string, options: { cas?: number } = {}): Promise<void> {
    await this.metadata.transfer(keyPath(from), parseInput(transferFields, { to, ...options }), true);
  }

  /** Removes every key below the folder, key by key in batches; answers how many. Running it again resumes. */
  async deleteFolder(folder: string): Promise<{ removed: number }> {
    const path = folderPath(folder);
    if (path === '') throw new InvalidRequest('missing path: deleting every key of the engine is not offered');
    return { removed: await deleteFolder(this.context.keys, path, undefined, (key) => this.metadata.remove(key)) };
  }

  /** Brings a key, or the keys below a folder ('' or ending in '/'), back to their state at `asOf` (docs/kv.md). */
  async restore(path: string, { asOf, dryRun, after, limit }: KvRestoreOptions): Promise<RestoreReport> {
    const target = path === '' || path.endsWith('/') ? folderPath(path) : keyPath(path);
    const fields = parseInput(restoreFields, { dry_run: dryRun, after, limit });
    return this.restorer.run(target, fields, undefined, undefined, asOf);
  }

  /**
   * Removes version data and entry documents that a process which died mid-change left unreferenced over a storage
   * without atomic commits (with them, nothing is ever left and this returns at once). Safe while other processes
   * write; bounded by `limit`; call again with `after: next` while `complete` is false. See docs/kv.md.
   */
  reclaimOrphans(options: ReclaimOptions = {}): Promise<ReclaimResult> {
    return this.orphans.run(options);
  }

  /**
   * Removes the data of every version past its destroy_version_after (reads already answer them destroyed). The server
   * runs it periodically; a service embedding the engine runs it on its own timer. Safe beside other processes.
   */
  sweepLifetimes(): Promise<KvSweepResult> {
    return sweepLifetimes(this.context);
  }

  /** The direct children of a folder ('' is the root); an empty folder gives []. */
  async list(folder = '', options: KvListOptions = {}): Promise<string[]> {
    const fields = parseInput(listFields, {
      after: options.after,
      limit: options.limit,
      exclude_deleted: options.excludeDeleted,
    });
    return this.listing.names({}, folderPath(folder), fields, false);
  }

  /** Every key below a folder ('' is the root) as a path relative to it, in storage order; an empty folder gives []. */
  async scan(folder = '', options: KvScanOptions = {}): Promise<string[]> {
    const fields = parseInput(listFields, { after: options.after, limit: options.limit });
    return this.listing.names({}, folderPath(folder), fields, true);
  }

  /** A page of a folder's names (or with `recursive`, of every key below it) with each key's metadata. */
  async listDetailed(folder = '', options: KvListOptions & { recursive?: boolean } = {}): Promise<DetailedListing> {
    const fields = parseInput(listFields, {
      after: options.after,
      limit: options.limit,
      exclude_deleted: options.excludeDeleted,
    });
    return this.listing.detailed({}, folderPath(folder), fields, options.recursive === true);
  }

  /**
   * Calls `listener` with every committed change of a key whose path starts with `prefix` ('' for all; a folder is
   * `name/`), after the change is committed; a refused request makes no event. Answers the function that unsubscribes.
   */
  subscribe(prefix: string, listener: KvChangeListener): () => void {
    this.startWatching();
    return this.context.feed.subscribe(prefix, listener);
  }

  /** The same events as an async iterator; ending the loop or aborting `signal` unsubscribes. */
  events(prefix = '', options: { signal?: AbortSignal } = {}): AsyncIterableIterator<KvChangeEvent> {
    this.startWatching();
    return this.context.feed.events(prefix, options);
  }

  /**
   * The changes the key's record keeps (its latest, oldest first) and when the key was created; undefined when the key
   * does not exist. Read from a durable cursor, they give every change a subscription might have missed (a change made
   * while no process listened), as long as the record still keeps it.
   */
  async recordedChanges(path: string): Promise<KvRecordedChanges | undefined> {
    const head = await this.context.keys.read(keyPath(path));
    if (!head) return undefined;
    const changes = changesOf(path, head, this.layout.metadata(path)).map(eventOf);
    return { created: formatTimestamp(head.created), changes };
  }

  /**
   * Over a storage that can `watch` (PostgreSQL, SQLite), changes made by other processes are delivered too, from the moment
   * this resolves; subscribing starts the watch. Resolves at once over other storages.
   */
  watching(): Promise<void> {
    return this.remote.start();
  }

  /** Stops watching other processes (subscribers stay, and still get this process's changes). */
  stopWatching(): Promise<void> {
    return this.remote.stop();
  }

  private startWatching(): void {
    this.remote.start().catch((error: unknown) => {
      void this.remote.stop();
      this.reportEventError(error);
    });
  }
}
