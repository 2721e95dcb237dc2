import type { Clock } from '../../ports/clock.js';
import type { CloudProvider } from '../../ports/cloud.js';
import type { EngineRequest } from '../../core/request.js';
import { KeyedMutex } from '../../core/lock.js';
import { reportInternalError } from '../../core/request-for-log.js';
import { JsonStore, type unchanged, type UpdateResult } from '../../core/stored-json.js';
import { authStoredShapes } from '../stored-shapes.js';
import { systemClock } from '../../core/system-clock.js';
import { BackgroundJobs } from './background-jobs.js';
import { DEFAULT_MOUNT_MAX_TTL, type AuthEngineOptions } from './engine-options.js';
import { PrincipalArnCache } from './principal-arn-cache.js';

type Change<T> = (current: T | undefined) => T | undefined | typeof unchanged | Promise<T | undefined | typeof unchanged>;

/**
 * What every part of the auth method shares: the stored documents (keys relative to the storage prefix), the clock,
 * the cloud port and the engine options. Read-modify-writes go through `update`, which serialises writers of one key
 * in this process and commits through compareAndPut when the storage offers it, so several engines stay exact.
 */
export class AuthContext {
  readonly clock: Clock;
  readonly cloud: CloudProvider;
  readonly env: Record<string, string | undefined>;
  readonly allowSha1Signatures: boolean;
  readonly mountMaxTtl: number;
  readonly jobs = new BackgroundJobs();
  /** Full ARNs of iam principals for wildcard bindings, shared by the logins of this engine. */
  readonly principalArns = new PrincipalArnCache();
  private readonly store: JsonStore;
  private readonly prefix: string;
  private readonly locks = new KeyedMutex();
  private readonly onInternalError: AuthEngineOptions['onInternalError'];

  constructor(options: AuthEngineOptions) {
    this.prefix = options.storagePrefix ?? 'auth/';
    this.store = new JsonStore(options.storage, authStoredShapes(this.prefix));
    this.clock = options.clock ?? systemClock;
    this.cloud = options.cloud;
    this.env = options.env ?? process.env;
    this.allowSha1Signatures = options.allowSha1Signatures ?? false;
    this.mountMaxTtl = options.mountMaxTtl ?? DEFAULT_MOUNT_MAX_TTL;
    this.onInternalError = options.onInternalError;
  }

  now(): Date {
    return this.clock.now();
  }

  // Returned rather than awaited (here and in `list`): every login reads through these, and each async layer that only
  // hands on a promise costs it several more microtask turns.
  get<T>(key: string): Promise<T | undefined> {
    return this.store.get<T>(this.prefix + key);
  }

  async has(key: string): Promise<boolean> {
    return (await this.store.getRaw(this.prefix + key)) !== undefined;
  }

  /** Names directly under `folder` (which ends in '/'). */
  list(folder: string): Promise<string[]> {
    return this.store.list(this.prefix + folder);
  }

  /** Read-modify-write of one document; `change` may run again on a conflict, so it must have no side effects. */
  async update<T>(key: string, change: Change<T>): Promise<UpdateResult<T>> {
    const full = this.prefix + key;
    return this.locks.run(full, () => this.store.update<T>(full, change));
  }

  async delete(key: string): Promise<void> {
    const full = this.prefix + key;
    await this.locks.run(full, () => this.store.delete(full));
  }

  reportInternalError(error: unknown, request: EngineRequest): void {
    reportInternalError(this.onInternalError, error, request);
  }
}
