import type { EngineRequest } from '../core/framework/request.js';
import type { Clock } from '../ports/clock.js';
import type { Storage } from '../ports/storage.js';
import { valueLimits, type ValueLimits } from './values/value-limits.js';

/** What the embedding service gives KvEngine: its options, and the options and answers of its typed methods. */

/** How a KvEngine is built: only `storage` is required. */
export interface KvEngineOptions {
  /** Where the engine keeps its documents; one with atomic `commit` keeps every change all or nothing (docs/kv.md). */
  storage: Storage;
  /** Defaults to the system clock. */
  clock?: Clock;
  /** Where the engine keeps its records in `storage`, so that one Storage can hold several engines. Default 'kv/'. */
  storagePrefix?: string;
  /**
   * Largest data a version may hold, in bytes of serialised JSON (default 1 MiB, the example server's body limit).
   * A write or patch whose data would be larger is a 400.
   */
  maxValueBytes?: number;
  /**
   * Listings (LIST, SCAN, detailed-metadata) show only what the caller may read, as if every request asked with
   * `readable_only=true`: keys need `read` on `data/<key>`, sub-folders `list` on `metadata/<folder>/`. Only requests
   * with an `authorize` callback are narrowed. Default false (a request can still ask).
   */
  filterListings?: boolean;
  /** A change listener threw, or watching other processes failed: the change stands (it is committed); this reports it. */
  onEventError?: (error: unknown) => void;
  /** Every server-side fault answered as 500, for the service's logs (with the request without its body). */
  onInternalError?: (error: unknown, request: EngineRequest) => void;
}

/** What a change that stores no new version answers. */
export interface KvWarnings {
  /** Non-fatal problems, e.g. old versions whose removal failed and will be retried. */
  warnings: string[];
}

/** Which version a read answers. */
export interface KvReadOptions {
  /** 0 or absent: the current version. */
  version?: number;
  /**
   * The version that was current at this time (a Date, or RFC 3339 text), at or before now; not with `version`.
   * Only `read` takes it. See docs/kv.md, "Point in time".
   */
  asOf?: Date | string;
}

/** What `restore` brings back, and how much of a folder one call does. */
export interface KvRestoreOptions {
  /** The time to restore to (a Date, or RFC 3339 text), at or before now. */
  asOf: Date | string;
  /** Answer the same report and change nothing. */
  dryRun?: boolean;
  /** For a folder: resume after this key (relative to the folder), the `next` of the previous call. */
  after?: string;
  /** For a folder: at most this many keys in this call (1 to 1000, the default). */
  limit?: number;
}

/** How a patch applies. */
export interface KvPatchOptions {
  /** Check-and-set: the current version the patch expects, as for `write`. */
  cas?: number;
  /** 'merge' (RFC 7396, the default) or 'json-patch' (RFC 6902: `patch` is then an array of operations). */
  format?: 'merge' | 'json-patch';
}

/** A page of a listing, in byte order of the names. */
export interface KvListOptions {
  /** Start after this name (the last one of the previous page). */
  after?: string;
  /** At most this many names; 0, negative or absent: all of them. */
  limit?: number;
  /** Leave out keys whose current version has a deletion time, even a future one; folders stay. */
  excludeDeleted?: boolean;
}

/** SCAN: every key below a folder, as paths relative to it. */
export type KvScanOptions = Omit<KvListOptions, 'excludeDeleted'>;

/**
 * Options are the embedding service's configuration: a mistake is refused at once, not found at the first request.
 * Answers the value limits they set.
 */
export function checkOptions(options: KvEngineOptions): ValueLimits {
  if (!options || typeof options.storage !== 'object' || options.storage === null)
    throw new TypeError('KvEngine needs a storage');
  return valueLimits(options.maxValueBytes);
}
